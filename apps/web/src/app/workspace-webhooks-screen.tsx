import { WEBHOOK_MESSAGES } from '@pulsecheck/shared/webhooks/events';
import { WebhooksCard } from '@/features/webhooks/webhooks-card';
import { WorkspaceSettingsFrame } from '@/features/workspaces/workspace-settings-frame';

/** Workspace settings → 'Webhooks' (issue 35 item 3): the active workspace's webhooks, for its admins. */
export function WorkspaceWebhooksScreen() {
  return (
    <WorkspaceSettingsFrame tab="webhooks">
      {(workspace) => (
        <>
          <p className="text-sm text-slate-700">
            Each request carries a <code>Pulsecheck-Signature</code> header to verify with the secret shown
            when the webhook is added.
          </p>
          <WebhooksCard
            scope={{ kind: 'workspace', id: workspace.id }}
            title={`${WEBHOOK_MESSAGES.cardTitle}: ${workspace.name}`}
          />
        </>
      )}
    </WorkspaceSettingsFrame>
  );
}
