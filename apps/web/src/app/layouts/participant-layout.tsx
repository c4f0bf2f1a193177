import { LanguageMenu } from '@/components/language-menu';
import { BellRing, ClipboardList, LayoutDashboard, LogOut } from 'lucide-react';
import { Link, Outlet } from 'react-router';
import { Button } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { NotificationBell } from '@/features/notifications/bell';
import { useLogout, useSession } from '@/lib/session';
import { InsideLayout } from '../error-screens';
import { SkipLink } from '@/components/ui/skip-link';
import { t } from '@/lib/i18n';

/** Where everyone signed in changes what reaches them; admins go on to the same page in the admin area. */
export const PARTICIPANT_SETTINGS_PATH = '/account-settings/notifications';

/** Icon-only below 640 px (its name read out), icon and name from there. */
const HIDDEN_ON_PHONES = 'hidden sm:inline';
const compact = 'px-1.5 sm:px-3';

/**
 * The signed-in participant's frame (/dashboard, the participation and completion screens, the voting view and
 * the notification settings): logo to /dashboard, the admin area for those who have one, their health checks,
 * their notification settings, the notification bell, and logout. The screens render inside `main`.
 * Composed here because features do not import each other: the bell belongs to the notifications feature.
 */
export function ParticipantLayout() {
  const session = useSession();
  const { logOut, pending: leaving } = useLogout({ redirectTo: '/login' });

  return (
    <div className="min-h-screen bg-slate-50">
      <SkipLink to="participant-main" />
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-2 px-3 py-3 sm:px-4">
          <Logo to="/dashboard" />
          <nav aria-label={t('layout.accountNav')} className="flex shrink-0 items-center sm:gap-1">
            {session.data?.canAdmin && (
              <Button variant="ghost" size="sm" className={compact} asChild>
                <Link to="/admin/dashboard">
                  <LayoutDashboard aria-hidden="true" />
                  <span className={HIDDEN_ON_PHONES}>{t('layout.admin')}</span>
                  <span className="sr-only sm:hidden">{t('layout.adminDashboard')}</span>
                </Link>
              </Button>
            )}
            <Button variant="ghost" size="sm" className={compact} asChild>
              <Link to="/dashboard">
                <ClipboardList aria-hidden="true" />
                <span className="hidden md:inline">{t('layout.myHealthChecks')}</span>
                <span className="sr-only md:hidden">{t('layout.myHealthChecks')}</span>
              </Link>
            </Button>
            <Button variant="ghost" size="sm" className={compact} asChild>
              <Link to={PARTICIPANT_SETTINGS_PATH}>
                <BellRing aria-hidden="true" />
                <span className="hidden md:inline">{t('layout.notificationSettings')}</span>
                <span className="sr-only md:hidden">{t('layout.notificationSettings')}</span>
              </Link>
            </Button>
            <Button variant="ghost" size="sm" className={compact} onClick={logOut} disabled={leaving}>
              <LogOut aria-hidden="true" />
              <span className={HIDDEN_ON_PHONES}>
                {leaving ? t('layout.loggingOut') : t('layout.logOut')}
              </span>
              <span className="sr-only sm:hidden">{t('layout.logOut')}</span>
            </Button>
            <LanguageMenu compact />
            {/* Last, so that its panel (opening towards the start) stays on a 360 px screen. */}
            <NotificationBell />
          </nav>
        </div>
      </header>
      <main id="participant-main">
        <InsideLayout value>
          <Outlet />
        </InsideLayout>
      </main>
    </div>
  );
}
