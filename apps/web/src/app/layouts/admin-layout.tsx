import { breadcrumbs } from '@pulsecheck/shared/dashboard/breadcrumbs';
import { WORKSPACE_SETTINGS } from '@pulsecheck/shared/workspaces/settings';
import {
  Building2,
  ChartColumn,
  ChevronRight,
  Home,
  LayoutDashboard,
  LayoutTemplate,
  LogOut,
  Menu,
  Settings,
  SlidersHorizontal,
  Users,
  X,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { FullPageSpinner } from '@/components/ui/spinner';
import { NotificationBell } from '@/features/notifications/bell';
import { useWorkspaces } from '@/features/workspaces/api';
import { cn } from '@/lib/cn';
import { useMediaQuery } from '@/lib/media-query';
import { useLogout, useSession } from '@/lib/session';
import { InsideLayout, UnexpectedError } from '../error-screens';
import { SkipLink } from '@/components/ui/skip-link';
import { say, t } from '@/lib/i18n';

/** The sidebar's entries, in the app's language (a function: the catalogue is not loaded at import). */
const navigation = () => [
  { to: '/admin/dashboard', label: t('breadcrumbs.dashboard'), icon: LayoutDashboard },
  { to: '/admin/templates', label: t('breadcrumbs.templates'), icon: LayoutTemplate },
  { to: '/admin/team-management', label: t('breadcrumbs.teamManagement'), icon: Users },
  // Only for the owner and admins of the active workspace's organisation (the server refuses everyone else).
  { to: '/admin/insights', label: t('breadcrumbs.insights'), icon: ChartColumn, organization: true },
  // For the active workspace's admins.
  {
    to: WORKSPACE_SETTINGS.path,
    label: say(WORKSPACE_SETTINGS.title),
    icon: SlidersHorizontal,
    workspaceAdmin: true,
  },
  { to: '/admin/account-settings', label: t('breadcrumbs.accountSettings'), icon: Settings },
];

/**
 * The admin area: sidebar (280 px, always open from 1024 px, a sliding panel with a top bar and overlay
 * below), breadcrumb and Logout. Only users with admin or member access get in (PRODUCT-DECISIONS 3).
 */
export function AdminLayout() {
  const session = useSession();
  if (session.isPending) return <FullPageSpinner />;
  if (session.isError) return <UnexpectedError message={session.error.message} />;
  const user = session.data;
  if (!user) return <Navigate to="/login" replace />;
  if (user.setupStatus === 'pending_setup') return <Navigate to="/auth/admin-confirmation" replace />;
  if (!user.canAdmin) return <Navigate to="/dashboard" replace />;
  return <AdminShell />;
}

function AdminShell() {
  const location = useLocation();
  // The panel remembers the page it was opened on, so any navigation closes it (below 1024 px).
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const open = openedOn === location.pathname;
  const setOpen = (value: boolean) => setOpenedOn(value ? location.pathname : null);
  // One bell, where the width puts it: the top bar below 1024 px, the sidebar from there (tailwind's lg).
  const wide = useMediaQuery('(min-width: 1024px)');

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpenedOn(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <div className="min-h-screen bg-slate-50">
      <SkipLink to="admin-main" />
      <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white px-4 lg:hidden">
        <Button
          variant="ghost"
          size="icon"
          aria-label={t('layout.openMenu')}
          aria-expanded={open}
          aria-controls="admin-sidebar"
          onClick={() => setOpen(true)}
        >
          <Menu aria-hidden="true" />
        </Button>
        <Logo to="/admin/dashboard" />
        {!wide && <NotificationBell className="ms-auto" />}
      </header>
      {open && (
        <div
          className="fixed inset-0 z-40 bg-slate-900/50 lg:hidden"
          data-testid="sidebar-overlay"
          aria-hidden="true"
          onClick={() => setOpen(false)}
        />
      )}
      <aside
        id="admin-sidebar"
        aria-label={t('layout.sidebar')}
        data-state={open ? 'open' : 'closed'}
        className={cn(
          'fixed inset-y-0 start-0 z-50 flex w-[280px] flex-col border-e border-slate-200 bg-white transition-transform duration-200',
          open ? 'translate-x-0' : '-translate-x-full rtl:translate-x-full invisible lg:visible',
          'lg:translate-x-0',
        )}
      >
        <Sidebar open={open} onClose={() => setOpen(false)} bell={wide} />
      </aside>
      <div className="lg:ps-[280px]">
        <main id="admin-main" className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:px-8">
          <Breadcrumb />
          <InsideLayout value>
            <Outlet />
          </InsideLayout>
        </main>
      </div>
    </div>
  );
}

function Sidebar({ open, onClose, bell }: { open: boolean; onClose: () => void; bell: boolean }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  // Opening the panel moves the keyboard focus into it.
  useEffect(() => {
    if (open) closeButton.current?.focus();
  }, [open]);
  const workspaces = useWorkspaces();
  const active = workspaces.data?.workspaces.find((w) => w.id === workspaces.data?.activeWorkspaceId);
  return (
    <>
      <div className="flex h-16 items-center justify-between border-b border-slate-200 px-5">
        <Logo to="/admin/dashboard" />
        {/* Wide screens have no top bar: the bell sits here. */}
        {bell && <NotificationBell className="ms-auto" align="start" />}
        <Button
          ref={closeButton}
          variant="ghost"
          size="icon"
          className="lg:hidden"
          aria-label={t('layout.closeMenu')}
          onClick={onClose}
        >
          <X aria-hidden="true" />
        </Button>
      </div>
      <div className="border-b border-slate-200 px-5 py-3">
        <p className="text-xs font-medium tracking-wide text-slate-600 uppercase">{t('layout.workspace')}</p>
        <Link
          to="/admin/workspaces"
          className="mt-1 flex items-center gap-2 text-sm font-medium text-slate-900 hover:text-brand-700"
          data-testid="active-workspace"
        >
          <Building2 className="size-4 shrink-0" aria-hidden="true" />
          <span className="truncate">
            {active?.name ?? (workspaces.isPending ? t('ui.loading') : t('layout.noWorkspace'))}
          </span>
        </Link>
      </div>
      <nav aria-label={t('layout.adminNav')} className="flex-1 overflow-y-auto px-3 py-4">
        <ul className="flex flex-col gap-1">
          {navigation()
            .filter(
              (item) =>
                (!item.organization || active?.organizationRole) &&
                (!('workspaceAdmin' in item) || active?.access === 'admin'),
            )
            .map(({ to, label, icon: Icon }) => (
              <li key={to}>
                <NavLink
                  to={to}
                  className={({ isActive }) =>
                    cn(
                      'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium',
                      isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100',
                    )
                  }
                >
                  <Icon className="size-4" aria-hidden="true" />
                  {label}
                </NavLink>
              </li>
            ))}
        </ul>
      </nav>
      <div className="border-t border-slate-200 p-3">
        <CurrentUserCard />
        <LogoutButton />
      </div>
    </>
  );
}

/** Who is signed in: their photo (or initials), name and e-mail. */
function CurrentUserCard() {
  const { data: user } = useSession();
  if (!user) return null;
  const initials = user.name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
  return (
    <div className="mb-2 flex items-center gap-3 px-3 py-2" data-testid="current-user">
      {user.avatarUrl ? (
        <img src={user.avatarUrl} alt="" className="size-9 shrink-0 rounded-full object-cover" />
      ) : (
        <span
          aria-hidden="true"
          className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-800"
        >
          {initials || '?'}
        </span>
      )}
      <span className="min-w-0">
        <span className="block truncate text-sm font-medium text-slate-900">{user.name}</span>
        <span className="block truncate text-xs text-slate-600">{user.email}</span>
      </span>
    </div>
  );
}

/** Logout: ends the sessions, forgets the cached workspace and everything else, then /login. */
function LogoutButton() {
  const { logOut, pending } = useLogout({ redirectTo: '/login' });
  return (
    <Button variant="ghost" className="w-full justify-start" disabled={pending} onClick={logOut}>
      <LogOut aria-hidden="true" />
      {pending ? t('layout.loggingOut') : t('layout.logout')}
    </Button>
  );
}

function Breadcrumb() {
  const location = useLocation();
  const crumbs = breadcrumbs(location.pathname);
  return (
    <nav aria-label={t('layout.breadcrumb')} className="mb-4 text-sm text-slate-600">
      <ol className="flex flex-wrap items-center gap-1">
        <li>
          <Link
            to="/admin/dashboard"
            className="flex items-center rounded hover:text-slate-900"
            aria-label={t('layout.home')}
          >
            <Home className="size-4" aria-hidden="true" />
          </Link>
        </li>
        {crumbs.map((crumb, index) => (
          <li key={`${crumb.label}-${index}`} className="flex items-center gap-1">
            <ChevronRight className="size-4 text-slate-400 rtl:rotate-180" aria-hidden="true" />
            {crumb.href ? (
              <Link to={crumb.href} className="hover:text-slate-900">
                {say(crumb.label)}
              </Link>
            ) : (
              <span
                aria-current={index === crumbs.length - 1 ? 'page' : undefined}
                className="text-slate-900"
              >
                {say(crumb.label)}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
