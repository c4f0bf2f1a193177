import {
  actionsToAsk,
  FOLLOW_UP_MESSAGES,
  followUpQuestion,
} from '@pulsecheck/shared/action-items/follow-up';
import type { FollowUpCandidate } from '@pulsecheck/shared/action-items/schemas';
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { apiGet } from '@/lib/api-client';
import { formatDate } from '@/lib/dates';
import { say, t } from '@/lib/i18n';

/**
 * Configure's 'Actions to ask about' (decision 0019): the workspace's done action items this check will ask
 * about, by the shared rule, given the components left switched on; the facilitator may leave any out.
 */
export function FollowUpActions({
  workspaceId,
  componentKeys,
  leaveOut,
  onLeaveOutChange,
}: {
  workspaceId: string;
  componentKeys: string[];
  leaveOut: ReadonlySet<string>;
  onLeaveOutChange: (id: string, leftOut: boolean) => void;
}) {
  const query = useQuery({
    queryKey: ['workspace', workspaceId, 'follow-up-actions'],
    queryFn: ({ signal }) =>
      apiGet<{ actions: FollowUpCandidate[] }>(
        `/workspaces/${encodeURIComponent(workspaceId)}/follow-up-actions`,
        signal,
      ),
  });
  const asked = actionsToAsk(query.data?.actions ?? [], { componentKeys, launchAt: new Date() });
  return (
    <Card data-testid="follow-up-actions">
      <CardHeader>
        <CardTitle className="text-base">{say(FOLLOW_UP_MESSAGES.configureTitle)}</CardTitle>
        <CardDescription>{say(FOLLOW_UP_MESSAGES.configureHint)}</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <p className="text-sm text-slate-600">{t('healthChecks.loading')}</p>
        ) : asked.length === 0 ? (
          <p className="text-sm text-slate-600">{say(FOLLOW_UP_MESSAGES.configureNone)}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {asked.map((action) => (
              <li key={action.id}>
                <CheckboxField
                  label={followUpQuestion(action.description, action.componentTitle, { t })}
                  hint={[
                    action.ownerName ? t('healthChecks.actionOwner', { name: action.ownerName }) : null,
                    action.completedAt
                      ? t('healthChecks.actionDone', { date: formatDate(action.completedAt) })
                      : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                  checked={!leaveOut.has(action.id)}
                  onCheckedChange={(ask) => onLeaveOutChange(action.id, !ask)}
                />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
