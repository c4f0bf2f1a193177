import { WORKED_MESSAGES as M } from '@pulsecheck/shared/action-items/worked';
import type { InsightPeriod } from '@pulsecheck/shared/insights/rules';
import type { WorkedRow } from '@pulsecheck/shared/insights/schemas';
import { useQuery } from '@tanstack/react-query';
import { Spinner } from '@/components/ui/spinner';
import { LoadFailed, StateCard } from '@/components/ui/state-card';
import { formats, say, t } from '@/lib/i18n';
import { actionInsightsQuery } from './api';
import { HeadRow, Scroller, td } from './loops-section';

/** A share with what it is made of, or why there is none. */
function Share({ share, of, none }: { share: number | null; of: string; none: string }) {
  if (share === null) return <span className="text-slate-600">{none}</span>;
  return (
    <span>
      <span className="font-semibold text-slate-900">{formats().percent(share / 100)}</span>{' '}
      <span className="text-xs text-slate-600">({of})</span>
    </span>
  );
}

function Cells({ row }: { row: WorkedRow }) {
  return (
    <>
      <td className={td}>{row.done}</td>
      <td className={td}>{row.asked}</td>
      <td className={td}>
        <Share
          share={row.workedShare}
          of={t('insights.answers', { count: row.answered })}
          none={say(row.asked === 0 ? M.notAsked : M.tooFew)}
        />
      </td>
      <td className={td}>
        <Share
          share={row.improvedShare}
          of={t('insights.actions.count', { count: row.compared })}
          none={say(row.asked === 0 ? M.notAsked : M.notCompared)}
        />
      </td>
    </>
  );
}

/**
 * 'Actions that worked' on organisation insights (issue 33 item 5, decision 0019): per team and for the
 * organisation, the action items done in the period, the share of follow-up answers 'Yes' or 'Partly' and the
 * share whose component improved by the next check. The server applies the privacy floor; this draws what it
 * answers.
 */
export function ActionsSection({
  organizationId,
  period,
}: {
  organizationId: string;
  period: InsightPeriod;
}) {
  const query = useQuery(actionInsightsQuery(organizationId, period));
  const data = query.data;
  return (
    <section aria-labelledby="actions-title" className="space-y-3" data-print-block>
      <div>
        <h2 id="actions-title" className="text-xl font-semibold text-slate-900">
          {say(M.title)}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t('insights.actions.description')}</p>
      </div>
      {query.isPending ? (
        <Spinner label={t('insights.actions.loading')} className="py-8" />
      ) : query.isError ? (
        <LoadFailed
          title={say(M.loadFailed)}
          message={say(query.error.message)}
          onRetry={() => void query.refetch()}
        />
      ) : data!.teams.length === 0 ? (
        <StateCard title={say(M.noActions)} message={say(M.noActionsHint)} />
      ) : (
        <div className="space-y-3" aria-busy={query.isFetching}>
          <p className="text-sm text-slate-600">{say(M.floorNote)}</p>
          <Scroller label={t('insights.actions.scroller', { title: say(M.title) })}>
            <table className="w-full min-w-[40rem]" data-testid="actions-table">
              <caption className="sr-only">{t('insights.actions.caption', { title: say(M.title) })}</caption>
              <HeadRow labels={[M.team, M.done, M.asked, M.worked, M.improved].map(say)} />
              <tbody className="divide-y divide-slate-100">
                {data!.teams.map((team) => (
                  <tr key={team.id} data-testid="actions-row">
                    <th scope="row" className={`${td} font-medium`}>
                      {team.name}
                    </th>
                    <Cells row={team} />
                  </tr>
                ))}
                <tr className="bg-slate-50" data-testid="actions-organisation">
                  <th scope="row" className={`${td} font-semibold`}>
                    {t('insights.organisationTeams', { count: data!.organisation.teams })}
                  </th>
                  <Cells row={data!.organisation} />
                </tr>
              </tbody>
            </table>
          </Scroller>
        </div>
      )}
    </section>
  );
}
