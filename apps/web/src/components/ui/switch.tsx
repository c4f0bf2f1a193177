import * as SwitchPrimitive from '@radix-ui/react-switch';
import { styled } from './styled';

export const Switch = styled(
  SwitchPrimitive.Root,
  'inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-slate-300 transition-colors data-[state=checked]:bg-brand-600 disabled:opacity-50',
  <SwitchPrimitive.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />,
);
