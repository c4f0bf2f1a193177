import * as TabsPrimitive from '@radix-ui/react-tabs';
import { styled } from './styled';

export const Tabs = TabsPrimitive.Root;

export const TabsList = styled(
  TabsPrimitive.List,
  'inline-flex flex-wrap items-center gap-1 rounded-lg bg-slate-100 p-1',
);

export const TabsTrigger = styled(
  TabsPrimitive.Trigger,
  'rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm',
);

export const TabsContent = styled(TabsPrimitive.Content, 'mt-4');
