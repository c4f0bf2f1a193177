import type { ReactNode } from 'react';
import { LanguageMenu } from '@/components/language-menu';
import { Logo } from './logo';

/** A page that is one centred card under the logo (sign-in, sign-up, invitations), with an optional footer line. */
export function CardPage({ children, footer }: { children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-10">
      <Logo />
      <main className="mt-6 w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        {children}
      </main>
      {footer && <div className="mt-6 text-sm text-slate-700">{footer}</div>}
      <LanguageMenu className="mt-6" />
    </div>
  );
}
