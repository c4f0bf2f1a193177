import { NUDGE_HINT_VALUES, NUDGE_MESSAGES, nudgeWords } from '@pulsecheck/shared/action-items/nudges';
import type { ActionToFollowUp } from '@pulsecheck/shared/dashboard/schemas';
import { Link } from 'react-router';
import { Card, CardContent } from '@/components/ui/card';
import { say, t } from '@/lib/i18n';

/**
 * 'Actions to follow up' on the dashboard (issue 33 item 6): the workspace's action items overdue by 7 days or done
 * 30 days without a follow-up (the rule: action-items/nudges.ts), each linking to its check's action items.
 */
export function ActionsToFollowUp({ actions }: { actions: ActionToFollowUp[] }) {
  if (actions.length === 0) return null;
  return (
    <section aria-labelledby="follow-up-title">
      <Card>
        <CardContent className="pt-6">
          <h2 id="follow-up-title" className="text-lg font-semibold text-slate-900">
            {say(NUDGE_MESSAGES.title)}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{t(NUDGE_MESSAGES.hint, NUDGE_HINT_VALUES)}</p>
          <ul className="mt-3 divide-y divide-slate-100" data-testid="actions-to-follow-up">
            {actions.map((action) => (
              <li key={action.id} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-baseline sm:gap-3">
                <Link
                  to={`/admin/health-check/${action.healthCheckId}/results#action-items`}
                  className="break-words font-medium text-brand-700 underline-offset-2 hover:underline"
                >
                  {action.description}
                </Link>
                <span className="text-sm text-slate-700">{nudgeWords(action, { t })}</span>
                <span className="text-sm text-slate-600">
                  {action.checkTitle}
                  {action.ownerName ? ` · ${action.ownerName}` : ''}
                </span>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </section>
  );
}
