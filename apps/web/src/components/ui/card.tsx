import type { ReactNode } from 'react';
import { styled } from './styled';

export const Card = styled('div', 'rounded-xl border border-slate-200 bg-white shadow-sm');
export const CardHeader = styled('div', 'flex flex-col gap-1.5 p-6 pb-3');
export const CardTitle = styled('h2', 'text-lg font-semibold text-slate-900');
export const CardDescription = styled('p', 'text-sm text-slate-600');
export const CardContent = styled('div', 'p-6 pt-3');

/** A titled card: its heading and what it is for, then what it holds (nothing, for a card that only says). */
export function SectionCard({
  title,
  description,
  descriptionId,
  contentClassName,
  children,
}: {
  title: string;
  description: ReactNode;
  /** For a control inside that the description explains (`aria-describedby`). */
  descriptionId?: string;
  contentClassName?: string;
  children?: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription id={descriptionId}>{description}</CardDescription>
      </CardHeader>
      {children && <CardContent className={contentClassName}>{children}</CardContent>}
    </Card>
  );
}
