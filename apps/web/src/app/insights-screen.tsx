import { INSIGHTS_MESSAGES } from '@pulsecheck/shared/insights/schemas';
import { Spinner } from '@/components/ui/spinner';
import { LoadFailed, StateCard } from '@/components/ui/state-card';
import { InsightsPage } from '@/features/insights/insights-page';
import { useWorkspaces } from '@/features/workspaces/api';
import { say, t } from '@/lib/i18n';

/**
 * Organisation insights for the active workspace's organisation (composed here: features do not import each
 * other). The sidebar offers it only to the organisation's owner and admins; the server refuses everyone else.
 */
export function InsightsScreen() {
  const workspaces = useWorkspaces();
  if (workspaces.isPending) return <Spinner label={t('insights.screen.loading')} className="py-16" />;
  if (workspaces.isError)
    return (
      <LoadFailed
        title={say(INSIGHTS_MESSAGES.loadFailed)}
        message={say(workspaces.error.message)}
        onRetry={() => void workspaces.refetch()}
        headingLevel={1}
      />
    );
  const active = workspaces.data.workspaces.find((w) => w.id === workspaces.data.activeWorkspaceId);
  if (!active?.organizationRole)
    return (
      <StateCard
        headingLevel={1}
        title={say(INSIGHTS_MESSAGES.title)}
        message={say(active ? INSIGHTS_MESSAGES.notForYou : INSIGHTS_MESSAGES.noWorkspace)}
      />
    );
  return <InsightsPage organizationId={active.organizationId} />;
}
