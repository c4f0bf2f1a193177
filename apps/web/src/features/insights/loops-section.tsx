import type { InsightPeriod } from '@pulsecheck/shared/insights/rules';
import {
  LOOP_INSIGHTS_MESSAGES as M,
  type LoopInsightRow,
  type LoopInsightsResponse,
} from '@pulsecheck/shared/insights/schemas';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { LoadFailed, StateCard } from '@/components/ui/state-card';
import { loopInsightsQuery } from './api';
import { currentLocale, formats, say, t } from '@/lib/i18n';

/** An eNPS score with its sign: +25, 0, −100. */
export const signed = (score: number) => (score > 0 ? `+${score}` : score < 0 ? `−${-score}` : '0');
const DAY = { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' } as const;
/** A round's closing day: '12 Nov 2026' in English, as this table has always written it; else the language's. */
const day = (iso: string) =>
  currentLocale() === 'en' ? new Date(iso).toLocaleDateString('en-GB', DAY) : formats().date(iso, DAY);
/** A month of the trend: 'November 2026'. */
const monthName = (month: string) =>
  formats().date(`${month}-01T00:00:00Z`, { month: 'long', year: 'numeric', timeZone: 'UTC' });
/** A share of 100 as the language writes a percentage. */
const percent = (share: number) => formats().percent(share / 100);

function Enps({ row }: { row: Pick<LoopInsightRow, 'enpsState' | 'enps'> }) {
  if (row.enpsState === 'none') return <span className="text-slate-600">{say(M.noEnps)}</span>;
  if (!row.enps) return <span className="text-slate-600">{say(M.enpsTooFew)}</span>;
  return (
    <span>
      <span className="font-semibold text-slate-900">{signed(row.enps.score)}</span>{' '}
      <span className="text-xs text-slate-600">({t('insights.answers', { count: row.enps.answers })})</span>
    </span>
  );
}

/** A table that scrolls sideways inside its own frame on a narrow screen, reachable by keyboard. */
export function Scroller({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      className="overflow-x-auto rounded-xl border border-slate-200 bg-white print:overflow-visible"
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      {children}
    </div>
  );
}

const th = 'px-3 py-2 text-start text-xs font-semibold uppercase tracking-wide text-slate-600';
export const td = 'px-3 py-2 align-top text-sm text-slate-800';

/** A table's header row: one column heading per label. */
export function HeadRow({ labels }: { labels: string[] }) {
  return (
    <thead className="border-b border-slate-200 bg-slate-50">
      <tr>
        {labels.map((label) => (
          <th key={label} scope="col" className={th}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** How many loops and teams the trend pools, and which loops are left out (named, never a figure). */
function Pooled({ data }: { data: LoopInsightsResponse }) {
  const { pooled } = data;
  return (
    <div className="text-sm text-slate-700" data-testid="loops-left-out">
      <p>
        {pooled.leftOutLoops === 0
          ? t('insights.loops.pooledAll', { loops: pooled.loops, teams: pooled.teams })
          : t('insights.loops.pooledSome', {
              loops: pooled.loops,
              teams: pooled.teams,
              leftOut: pooled.leftOutLoops,
              leftOutTeams: pooled.leftOutTeams,
            })}
      </p>
      {data.leftOut.length > 0 && (
        <details className="mt-1">
          <summary className="cursor-pointer text-brand-700">{t('insights.loops.leftOut')}</summary>
          <ul className="mt-1 list-disc ps-5">
            {data.leftOut.map((loop) => (
              <li key={loop.id}>
                {t('insights.loops.leftOutLoop', { team: loop.workspace.name, loop: loop.title })}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/**
 * The Loops section of organisation insights (issue 16): each team's loops with their latest closed round's
 * participation and eNPS, and the organisation's trend by month, pooled over the loops shown only. The server
 * applies the privacy floor; this draws what it answers.
 */
export function LoopsSection({ organizationId, period }: { organizationId: string; period: InsightPeriod }) {
  const query = useQuery(loopInsightsQuery(organizationId, period));
  const data = query.data;
  return (
    <section aria-labelledby="loops-title" className="space-y-3" data-print-block>
      <div>
        <h2 id="loops-title" className="text-xl font-semibold text-slate-900">
          {say(M.title)}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t('insights.loops.description')}</p>
      </div>
      {query.isPending ? (
        <Spinner label={t('insights.loops.loading')} className="py-8" />
      ) : query.isError ? (
        <LoadFailed
          title={say(M.loadFailed)}
          message={say(query.error.message)}
          onRetry={() => void query.refetch()}
        />
      ) : data!.loops.length === 0 ? (
        <StateCard
          title={say(M.noLoops)}
          message={
            <>
              <p>{say(M.noLoopsHint)}</p>
              {data!.leftOut.length > 0 && <Pooled data={data!} />}
            </>
          }
        />
      ) : (
        <div className="space-y-4" aria-busy={query.isFetching}>
          <p className="text-sm text-slate-600">{say(M.floorNote)}</p>
          <Pooled data={data!} />
          <Scroller label={t('insights.loops.tableLabel')}>
            <table className="w-full min-w-[36rem]" data-testid="loop-table">
              <caption className="sr-only">{t('insights.loops.tableCaption')}</caption>
              <HeadRow
                labels={[
                  t('insights.loops.team'),
                  t('insights.loops.loop'),
                  t('insights.loops.latestRound'),
                  t('insights.loops.participation'),
                  t('insights.loops.enps'),
                ]}
              />
              <tbody className="divide-y divide-slate-100">
                {data!.loops.map((loop) => (
                  <tr key={loop.id} data-testid="loop-row">
                    <th scope="row" className={`${td} font-medium`}>
                      {loop.workspace.name}
                    </th>
                    <td className={td}>{loop.title}</td>
                    <td className={td}>
                      {t('insights.loops.round', {
                        number: loop.round.number,
                        date: day(loop.round.closedAt),
                      })}
                    </td>
                    <td className={td}>
                      <span className="font-semibold text-slate-900">
                        {percent(loop.round.participation)}
                      </span>{' '}
                      <span className="text-xs text-slate-600">
                        {t('insights.loops.answeredOf', {
                          answered: loop.round.answered,
                          audience: loop.round.audience,
                        })}
                      </span>
                    </td>
                    <td className={td}>
                      <Enps row={loop} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroller>
          <h3 className="text-base font-semibold text-slate-900">{t('insights.loops.trendTitle')}</h3>
          <Scroller label={t('insights.loops.trendLabel')}>
            <table className="w-full min-w-[30rem]" data-testid="loop-trend">
              <caption className="sr-only">{t('insights.loops.trendCaption')}</caption>
              <HeadRow
                labels={[
                  t('insights.loops.month'),
                  t('insights.loops.teams'),
                  t('insights.loops.participation'),
                  t('insights.loops.enps'),
                ]}
              />
              <tbody className="divide-y divide-slate-100">
                {data!.trend.map((month) => (
                  <tr key={month.month}>
                    <th scope="row" className={`${td} font-medium`}>
                      {monthName(month.month)}
                    </th>
                    <td className={td}>
                      {t('insights.loops.monthTeams', { teams: month.teams, rounds: month.rounds })}
                    </td>
                    <td className={td}>
                      <span className="font-semibold text-slate-900">{percent(month.participation)}</span>{' '}
                      <span className="text-xs text-slate-600">
                        {t('insights.loops.answeredOf', {
                          answered: month.answered,
                          audience: month.audience,
                        })}
                      </span>
                    </td>
                    <td className={td}>
                      {month.enps ? (
                        <Enps row={{ enpsState: 'shown', enps: month.enps }} />
                      ) : (
                        <span className="text-slate-600">{t('insights.loops.noEnps')}</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroller>
        </div>
      )}
    </section>
  );
}
