import { Navigate } from 'react-router';
import { AccountLanguageCard } from '@/components/language-settings';
import { NotificationSettingsPage } from '@/features/account/notification-settings-page';
import { useSession } from '@/lib/session';

/**
 * /account-settings/notifications: the notification settings of someone who only takes part (issue 14), inside
 * the participant layout. Admins and members have them in the admin area, so they go there.
 */
export function ParticipantSettingsScreen() {
  const session = useSession();
  if (session.data?.canAdmin) return <Navigate to="/admin/account-settings/notifications" replace />;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-6 sm:py-8">
      <NotificationSettingsPage frame="participant" />
      <AccountLanguageCard />
    </div>
  );
}
