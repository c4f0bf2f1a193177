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
import { countOf } from '@pulsecheck/shared/words/plural';

/** An eNPS score with its sign: +25, 0, −100. */
export const signed = (score: number) => (score > 0 ? `+${score}` : score < 0 ? `−${-score}` : '0');
const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
const monthName = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

function Enps({ row }: { row: Pick<LoopInsightRow, 'enpsState' | 'enps'> }) {
  if (row.enpsState === 'none') return <span className="text-slate-600">{M.noEnps}</span>;
  if (!row.enps) return <span className="text-slate-600">{M.enpsTooFew}</span>;
  return (
    <span>
      <span className="font-semibold text-slate-900">{signed(row.enps.score)}</span>{' '}
      <span className="text-xs text-slate-600">({countOf(row.enps.answers, 'answer')})</span>
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

const th = 'px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';
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
        {`The organisation trend pools ${countOf(pooled.loops, 'loop')} of ${countOf(pooled.teams, 'team')}. `}
        {pooled.leftOutLoops === 0
          ? 'No loop is left out.'
          : `${countOf(pooled.leftOutLoops, 'loop is', 'loops are')} left out (${countOf(pooled.leftOutTeams, 'team')} with no loop shown): fewer responses than their minimum in their latest round.`}
      </p>
      {data.leftOut.length > 0 && (
        <details className="mt-1">
          <summary className="cursor-pointer text-brand-700">Loops left out</summary>
          <ul className="mt-1 list-disc pl-5">
            {data.leftOut.map((loop) => (
              <li key={loop.id}>
                {loop.workspace.name}: {loop.title}
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
          {M.title}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Each team&apos;s loops: how many answered their latest closed round, and its eNPS (the share of
          promoters minus the share of detractors, from −100 to +100).
        </p>
      </div>
      {query.isPending ? (
        <Spinner label="Loading the loops..." className="py-8" />
      ) : query.isError ? (
        <LoadFailed title={M.loadFailed} message={query.error.message} onRetry={() => void query.refetch()} />
      ) : data!.loops.length === 0 ? (
        <StateCard
          title={M.noLoops}
          message={
            <>
              <p>{M.noLoopsHint}</p>
              {data!.leftOut.length > 0 && <Pooled data={data!} />}
            </>
          }
        />
      ) : (
        <div className="space-y-4" aria-busy={query.isFetching}>
          <p className="text-sm text-slate-600">{M.floorNote}</p>
          <Pooled data={data!} />
          <Scroller label="Latest round of each loop (scrolls sideways)">
            <table className="w-full min-w-[36rem]" data-testid="loop-table">
              <caption className="sr-only">Latest closed round of each loop, by team</caption>
              <HeadRow labels={['Team', 'Loop', 'Latest closed round', 'Participation', 'eNPS']} />
              <tbody className="divide-y divide-slate-100">
                {data!.loops.map((loop) => (
                  <tr key={loop.id} data-testid="loop-row">
                    <th scope="row" className={`${td} font-medium`}>
                      {loop.workspace.name}
                    </th>
                    <td className={td}>{loop.title}</td>
                    <td className={td}>
                      Round {loop.round.number}, closed {day(loop.round.closedAt)}
                    </td>
                    <td className={td}>
                      <span className="font-semibold text-slate-900">{loop.round.participation}%</span>{' '}
                      <span className="text-xs text-slate-600">
                        ({loop.round.answered} of {loop.round.audience})
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
          <h3 className="text-base font-semibold text-slate-900">Organisation trend</h3>
          <Scroller label="Organisation trend by month (scrolls sideways)">
            <table className="w-full min-w-[30rem]" data-testid="loop-trend">
              <caption className="sr-only">
                The organisation&apos;s participation and eNPS by month, pooled over the loops shown
              </caption>
              <HeadRow labels={['Month', 'Teams', 'Participation', 'eNPS']} />
              <tbody className="divide-y divide-slate-100">
                {data!.trend.map((month) => (
                  <tr key={month.month}>
                    <th scope="row" className={`${td} font-medium`}>
                      {monthName(month.month)}
                    </th>
                    <td className={td}>
                      {month.teams} ({countOf(month.rounds, 'round')})
                    </td>
                    <td className={td}>
                      <span className="font-semibold text-slate-900">{month.participation}%</span>{' '}
                      <span className="text-xs text-slate-600">
                        ({month.answered} of {month.audience})
                      </span>
                    </td>
                    <td className={td}>
                      {month.enps ? (
                        <Enps row={{ enpsState: 'shown', enps: month.enps }} />
                      ) : (
                        <span className="text-slate-600">No eNPS to show</span>
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
