import { styled } from './styled';

export const Card = styled('div', 'rounded-xl border border-slate-200 bg-white shadow-sm');
export const CardHeader = styled('div', 'flex flex-col gap-1.5 p-6 pb-3');
export const CardTitle = styled('h2', 'text-lg font-semibold text-slate-900');
export const CardDescription = styled('p', 'text-sm text-slate-600');
export const CardContent = styled('div', 'p-6 pt-3');
