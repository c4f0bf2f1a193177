import { createContext, useContext, useId, useState, type ComponentProps, type KeyboardEvent } from 'react';
import { cn } from '@/lib/cn';

/*
 * Tabs as the WAI-ARIA tabs pattern describes them (and as Radix's Tabs, which this replaced, behave): a tablist
 * of tab buttons, the selected one in the tab order and the others reached with the arrow keys, Home and End,
 * selected as they get focus; only the selected tab's panel is rendered. Written here because Radix's brought
 * 6 KiB gzipped (its collection and roving-focus packages) into the dashboard's first load (decision 0006).
 */

type TabsState = {
  value: string;
  select: (value: string) => void;
  id: (part: 'tab' | 'panel', value: string) => string;
};

const TabsContext = createContext<TabsState | null>(null);

function useTabs() {
  const tabs = useContext(TabsContext);
  if (!tabs) throw new Error('A tab part must be inside <Tabs>');
  return tabs;
}

/** The selected tab is `value` (controlled, told by `onValueChange`) or starts as `defaultValue`. */
export function Tabs({
  value,
  defaultValue = '',
  onValueChange,
  ...props
}: Omit<ComponentProps<'div'>, 'defaultValue'> & {
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
}) {
  const [own, setOwn] = useState(defaultValue);
  const base = useId();
  const current = value ?? own;
  const state: TabsState = {
    value: current,
    select: (next) => {
      if (next === current) return;
      if (value === undefined) setOwn(next);
      onValueChange?.(next);
    },
    id: (part, of) => `${base}-${part}-${of}`,
  };
  return (
    <TabsContext value={state}>
      <div data-orientation="horizontal" {...props} />
    </TabsContext>
  );
}

const KEYS: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

export function TabsList({ className, onKeyDown, ...props }: ComponentProps<'div'>) {
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    onKeyDown?.(event);
    const step = KEYS[event.key];
    if (!step || event.defaultPrevented) return;
    const tabs = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)')];
    const index = tabs.findIndex((tab) => tab === document.activeElement);
    if (index === -1) return;
    event.preventDefault();
    // Focus selects (automatic activation).
    tabs[step(index, tabs.length)]?.focus();
  };
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      className={cn('inline-flex flex-wrap items-center gap-1 rounded-lg bg-slate-100 p-1', className)}
      onKeyDown={move}
      {...props}
    />
  );
}

export function TabsTrigger({
  value,
  className,
  onClick,
  onFocus,
  ...props
}: Omit<ComponentProps<'button'>, 'value'> & { value: string }) {
  const tabs = useTabs();
  const selected = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabs.id('tab', value)}
      aria-controls={tabs.id('panel', value)}
      aria-selected={selected}
      data-state={selected ? 'active' : 'inactive'}
      tabIndex={selected ? 0 : -1}
      className={cn(
        'rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm',
        className,
      )}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) tabs.select(value);
      }}
      onFocus={(event) => {
        onFocus?.(event);
        if (!event.defaultPrevented) tabs.select(value);
      }}
      {...props}
    />
  );
}

export function TabsContent({ value, className, ...props }: ComponentProps<'div'> & { value: string }) {
  const tabs = useTabs();
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={tabs.id('panel', value)}
      aria-labelledby={tabs.id('tab', value)}
      data-state="active"
      tabIndex={0}
      className={cn('mt-4', className)}
      {...props}
    />
  );
}
