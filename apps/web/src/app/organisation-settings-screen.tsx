import { WEBHOOK_MESSAGES } from '@pulsecheck/shared/webhooks/events';
import { OrganisationPage } from '@/features/account/organisation-page';
import { WebhooksCard } from '@/features/webhooks/webhooks-card';
import { useWorkspaces } from '@/features/workspaces/api';
import { say } from '@/lib/i18n';

/**
 * Account Settings → Organisation, composed here (features do not import each other): the organisation's branding
 * and its organisation-wide webhooks (issue 35 item 3), for its owner and organisation admins.
 */
export function OrganisationSettingsScreen() {
  const workspaces = useWorkspaces();
  const active = workspaces.data?.workspaces.find((w) => w.id === workspaces.data.activeWorkspaceId);
  return (
    <OrganisationPage>
      {active?.organizationRole && (
        <WebhooksCard
          scope={{ kind: 'organization', id: active.organizationId }}
          title={say(WEBHOOK_MESSAGES.organizationCardTitle)}
        />
      )}
    </OrganisationPage>
  );
}
