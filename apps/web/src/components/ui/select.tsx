import { styled } from './styled';

/** A native select, styled like the inputs: the browser's own keyboard and screen-reader behaviour. */
export const Select = styled(
  'select',
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus-visible:border-brand-600 disabled:cursor-not-allowed disabled:bg-slate-100 aria-[invalid=true]:border-red-600',
);
