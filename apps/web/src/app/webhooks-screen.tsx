import { WEBHOOK_MESSAGES } from '@pulsecheck/shared/webhooks/events';
import { Spinner } from '@/components/ui/spinner';
import { LoadFailed, StateCard } from '@/components/ui/state-card';
import { WebhooksCard } from '@/features/webhooks/webhooks-card';
import { useWorkspaces } from '@/features/workspaces/api';

/**
 * 'Webhooks' (issue 35 item 3), composed here (features do not import each other): the active workspace's card
 * for its admins, and the organisation-wide card for the organisation's owner and admins.
 */
export function WebhooksScreen() {
  const workspaces = useWorkspaces();
  if (workspaces.isPending) return <Spinner label="Loading..." className="py-16" />;
  if (workspaces.isError)
    return (
      <LoadFailed
        title="Webhooks could not be loaded"
        message={workspaces.error.message}
        onRetry={() => void workspaces.refetch()}
        headingLevel={1}
      />
    );
  const active = workspaces.data.workspaces.find((w) => w.id === workspaces.data.activeWorkspaceId);
  const workspaceAdmin = active?.access === 'admin';
  const organizationAdmin = Boolean(active?.organizationRole);
  if (!active || (!workspaceAdmin && !organizationAdmin))
    return (
      <StateCard headingLevel={1} title={WEBHOOK_MESSAGES.cardTitle} message={WEBHOOK_MESSAGES.adminsOnly} />
    );
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">{WEBHOOK_MESSAGES.cardTitle}</h1>
      <p className="text-sm text-slate-700">
        Each request carries a <code>Pulsecheck-Signature</code> header to verify with the secret shown when
        the webhook is added.
      </p>
      {workspaceAdmin && (
        <WebhooksCard
          scope={{ kind: 'workspace', id: active.id }}
          title={`${WEBHOOK_MESSAGES.cardTitle}: ${active.name}`}
        />
      )}
      {organizationAdmin && (
        <WebhooksCard
          scope={{ kind: 'organization', id: active.organizationId }}
          title={WEBHOOK_MESSAGES.organizationCardTitle}
        />
      )}
    </div>
  );
}
