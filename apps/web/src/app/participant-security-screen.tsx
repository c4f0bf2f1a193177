import { Navigate } from 'react-router';
import { SecurityContent } from '@/features/account/security-page';
import { useSession } from '@/lib/session';
import { t } from '@/lib/i18n';

/**
 * /account-settings/security: two-factor sign-in and passkeys for someone who only takes part (their organisation
 * may require two-factor). Admins and members have the Security tab in the admin area, so they go there.
 */
export function ParticipantSecurityScreen() {
  const session = useSession();
  if (session.data?.canAdmin) return <Navigate to="/admin/account-settings/security" replace />;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-6 sm:py-8">
      <h1 className="text-2xl font-bold text-slate-900">{t('settings.security')}</h1>
      <SecurityContent />
    </div>
  );
}
