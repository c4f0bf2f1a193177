import { styled } from './styled';

export const Input = styled(
  'input',
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:border-brand-600 disabled:cursor-not-allowed disabled:bg-slate-100 aria-[invalid=true]:border-red-600',
);

export const Textarea = styled(
  'textarea',
  'min-h-24 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:border-brand-600 aria-[invalid=true]:border-red-600',
);

// The select is in ./select.tsx: one styled native select for every screen.
