import { API_TOKEN_MESSAGES } from '@pulsecheck/shared/api-tokens/rules';
import { AUDIT_LOG_PATH, AUDIT_MESSAGES } from '@pulsecheck/shared/audit/log';
import { Bell, Building2, KeyRound, KeySquare, ScrollText, Shield, User } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '@/lib/cn';
import { say, t } from '@/lib/i18n';
import { useActiveWorkspace } from '@/lib/workspaces';

export type Section = 'profile' | 'password' | 'security' | 'organisation' | 'api-tokens' | 'audit-log';

/** The menu's entries, their labels in the app's language (a function: `t` is not ready at import). */
const entries = () =>
  [
    { key: 'profile', label: t('account.menuProfile'), to: '/admin/account-settings', Icon: User },
    {
      key: 'password',
      label: t('account.menuPassword'),
      to: '/admin/account-settings?tab=password',
      Icon: KeyRound,
    },
    {
      key: 'notifications',
      label: t('account.menuNotifications'),
      to: '/admin/account-settings/notifications',
      Icon: Bell,
    },
    {
      key: 'security',
      label: t('account.menuSecurity'),
      to: '/admin/account-settings/security',
      Icon: Shield,
    },
    {
      key: 'organisation',
      label: t('account.menuOrganisation'),
      to: '/admin/account-settings/organisation',
      Icon: Building2,
    },
    {
      key: 'api-tokens',
      label: say(API_TOKEN_MESSAGES.tab),
      to: '/admin/account-settings/api-tokens',
      Icon: KeySquare,
    },
    // The organisation's owner and organisation admins only (the server answers anyone else 404).
    {
      key: 'audit-log',
      label: say(AUDIT_MESSAGES.title),
      to: AUDIT_LOG_PATH,
      Icon: ScrollText,
      organisation: true,
    },
  ] as const;

/**
 * The left menu: Profile and Password here, Notifications, Security, Organisation (its branding, for the
 * organisation's owner and admins: the server refuses anyone else), API tokens and, for the organisation's owner
 * and admins of the active workspace's organisation, the Audit log, on screens of their own.
 */
function SettingsMenu({ section }: { section: Section }) {
  const active = useActiveWorkspace();
  const organisationRole = active.data?.organizationRole ?? null;
  const shown = entries().filter((entry) => !('organisation' in entry) || organisationRole !== null);
  return (
    <nav aria-label={t('account.menuLabel')}>
      <ul className="flex flex-row flex-wrap gap-1 lg:flex-col">
        {shown.map(({ key, label, to, Icon }) => (
          <li key={key}>
            <Link
              to={to}
              aria-current={section === key ? 'page' : undefined}
              className={cn(
                'flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium',
                section === key ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100',
              )}
            >
              <Icon className="size-4" aria-hidden="true" />
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SettingsFrame({ section, children }: { section: Section; children: ReactNode }) {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">{t('account.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('account.intro')}</p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[220px_1fr]">
        <SettingsMenu section={section} />
        <div className="min-w-0">{children}</div>
      </div>
    </div>
  );
}
