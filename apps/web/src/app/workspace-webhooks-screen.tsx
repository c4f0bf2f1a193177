import { WEBHOOK_MESSAGES } from '@pulsecheck/shared/webhooks/events';
import { WebhooksCard } from '@/features/webhooks/webhooks-card';
import { WorkspaceSettingsFrame } from '@/features/workspaces/workspace-settings-frame';
import { say, t, tRich } from '@/lib/i18n';

/** Workspace settings → 'Webhooks' (issue 35 item 3): the active workspace's webhooks, for its admins. */
export function WorkspaceWebhooksScreen() {
  return (
    <WorkspaceSettingsFrame tab="webhooks">
      {(workspace) => (
        <>
          <p className="text-sm text-slate-700">
            {tRich('settings.webhooksSignature', {
              header: 'Pulsecheck-Signature',
              code: (chunks) => <code>{chunks}</code>,
            })}
          </p>
          <WebhooksCard
            scope={{ kind: 'workspace', id: workspace.id }}
            title={t('settings.webhooksCardTitle', {
              title: say(WEBHOOK_MESSAGES.cardTitle),
              workspace: workspace.name,
            })}
          />
        </>
      )}
    </WorkspaceSettingsFrame>
  );
}
