import { ClipboardList, LayoutDashboard, LogOut } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { cn } from '@/lib/cn';
import { useLogout, useSession } from '@/lib/session';

/** The participant's frame: logo to /dashboard, a way to the admin area for those who have one, logout. */
export function ParticipationShell({
  title,
  description,
  children,
}: {
  title?: string;
  description?: string | null;
  children: ReactNode;
}) {
  const session = useSession();
  const { logOut, pending: leaving } = useLogout({ redirectTo: '/login' });

  return (
    <div className="min-h-screen bg-slate-50 pb-28 md:pb-10">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-3 px-4 py-3">
          <Logo to="/dashboard" />
          <nav aria-label="Account" className="flex shrink-0 items-center gap-1">
            {session.data?.canAdmin && (
              <Button variant="ghost" size="sm" asChild>
                <Link to="/admin/dashboard">
                  <LayoutDashboard aria-hidden="true" />
                  <span className="hidden sm:inline">Admin</span>
                  <span className="sr-only sm:hidden">Admin dashboard</span>
                </Link>
              </Button>
            )}
            <Button variant="ghost" size="sm" asChild>
              <Link to="/dashboard">
                <ClipboardList aria-hidden="true" />
                <span className="hidden sm:inline">My Health Checks</span>
                <span className="sr-only sm:hidden">My Health Checks</span>
              </Link>
            </Button>
            <Button variant="ghost" size="sm" onClick={logOut} disabled={leaving}>
              <LogOut aria-hidden="true" />
              <span className="hidden sm:inline">{leaving ? 'Logging out...' : 'Log out'}</span>
              <span className="sr-only sm:hidden">Log out</span>
            </Button>
          </nav>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-4 py-6 sm:py-8">
        {title && (
          <div className="mb-6">
            <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
            {description && <p className="mt-1 text-slate-700">{description}</p>}
          </div>
        )}
        {children}
      </main>
    </div>
  );
}

/** A centred card for empty, closed and error states. */
export function StateCard({
  title,
  message,
  actions,
  tone = 'neutral',
}: {
  title: string;
  message: ReactNode;
  actions?: ReactNode;
  tone?: 'neutral' | 'error';
}) {
  return (
    <section
      role={tone === 'error' ? 'alert' : undefined}
      className={cn(
        'mx-auto max-w-lg rounded-2xl border bg-white p-8 text-center shadow-sm',
        tone === 'error' ? 'border-red-200' : 'border-slate-200',
      )}
    >
      <h2 className="text-xl font-semibold text-slate-900">{title}</h2>
      <div className="mt-2 text-sm text-slate-700">{message}</div>
      {actions && <div className="mt-6 flex flex-wrap justify-center gap-3">{actions}</div>}
    </section>
  );
}
