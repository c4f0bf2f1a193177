import { FullPageSpinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { setUpOrganization, useDecideOnce, useRefreshSession } from './api';
import { t } from '@/lib/i18n';

/** /auth/admin-confirmation: creates the new admin's organisation once, then opens the dashboard. */
export function AdminConfirmationPage() {
  const refreshSession = useRefreshSession();

  useDecideOnce(async (go) => {
    const user = await refreshSession().catch(() => null);
    if (!user) return go('/login');
    if (user.setupStatus === 'completed' || user.setupStatus === 'already_completed')
      return go('/admin/dashboard');
    if (user.setupStatus !== 'pending_setup') return go('/setup-error');
    try {
      await setUpOrganization();
    } catch (error) {
      const alreadyDone = error instanceof ApiError && error.code === 'organization_exists';
      if (!alreadyDone) return go('/setup-error');
    }
    await refreshSession().catch(() => null);
    return go('/admin/dashboard');
  });

  return <FullPageSpinner label={t('auth.settingUpOrganization')} />;
}
