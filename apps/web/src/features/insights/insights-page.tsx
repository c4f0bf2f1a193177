import {
  DEFAULT_PERIOD,
  INSIGHT_PERIODS,
  INSIGHT_SORTS,
  PERIOD_LABELS,
  SHORT_LABELS,
  SORT_LABELS,
  sortTeams,
} from '@pulsecheck/shared/insights/rules';
import { INSIGHTS_MESSAGES as M, type InsightsResponse } from '@pulsecheck/shared/insights/schemas';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { Link, useSearchParams } from 'react-router';
import { Card, SectionCard } from '@/components/ui/card';
import { Select } from '@/components/ui/select';
import { ExportButtons } from '@/components/ui/export-buttons';
import { PrintStyle } from '@/components/ui/print-style';
import { Spinner } from '@/components/ui/spinner';
import { LoadFailed, StateCard } from '@/components/ui/state-card';
import { insightsCsvUrl, insightsQuery, type InsightFilters } from './api';
import { ALL_COLUMNS_UP_TO, HeatMap, TONES, TrendArrow } from './heat-map';
import { ActionsSection } from './actions-section';
import { LoopsSection } from './loops-section';
import { countOf } from '@pulsecheck/shared/words/plural';

const ALL_CATEGORIES = '';
const NO_TEAMS: InsightsResponse['teams'] = [];
const pick = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  values.includes(value as T) ? (value as T) : fallback;

/**
 * Whether the page is being printed: the team table for paper is drawn only then (500 rows nobody sees on screen
 * would lengthen every render). Synchronously, so it is there before the browser lays out the print.
 */
function usePrinting() {
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    const before = () => flushSync(() => setPrinting(true));
    const after = () => setPrinting(false);
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, []);
  return printing;
}

/** The filters and the order live in the address, so a view can be shared and the Back button undoes a change. */
function useView() {
  const [params, setParams] = useSearchParams();
  const filters: InsightFilters = {
    period: pick(INSIGHT_PERIODS, params.get('period'), DEFAULT_PERIOD),
    category: params.get('category') || null,
  };
  const sort = pick(INSIGHT_SORTS, params.get('sort'), 'health');
  const set = (name: 'period' | 'category' | 'sort', value: string) =>
    setParams(
      (now) => {
        const next = new URLSearchParams(now);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: false },
    );
  return { filters, sort, set };
}

function Choice({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-slate-700">
        {label}
      </label>
      <Select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {children}
      </Select>
    </div>
  );
}

/**
 * Organisation insights (issue 16): every team's latest completed health check on one heat map, where to help
 * first, and the teams left out (too few responses, or nothing completed in the period). For the organisation's
 * owner and admins; the server decides and answers everyone else 404.
 */
export function InsightsPage({ organizationId }: { organizationId: string }) {
  const { filters, sort, set } = useView();
  const query = useQuery(insightsQuery(organizationId, filters));
  const data = query.data;
  const teams = useMemo(() => (data ? sortTeams(data.teams, sort) : NO_TEAMS), [data, sort]);
  // The map's columns come in a deferred, time-sliced render (first empty), so loading or re-sorting 500 teams
  // never holds the page up in one long task.
  const columns = useDeferredValue(teams, NO_TEAMS);
  const printing = usePrinting();

  return (
    <div className="space-y-6">
      <PrintStyle />
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{M.title}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {data
              ? `How every team of ${data.organization.name} is doing, from each team's latest completed health check.`
              : "How every team is doing, from each team's latest completed health check."}
          </p>
          {data && (
            <p className="mt-1 hidden text-sm text-slate-700 print:block">
              {PERIOD_LABELS[data.period]} · {data.category ?? 'All categories'} · {SORT_LABELS[sort]}
            </p>
          )}
        </div>
        {data && data.teams.length > 0 && (
          <div className="flex flex-wrap gap-2" data-print-hide>
            <ExportButtons csvHref={insightsCsvUrl(organizationId, filters, sort)} />
          </div>
        )}
      </div>

      <Card className="grid gap-3 p-4 sm:grid-cols-3" data-print-hide>
        <Choice
          label="Category"
          value={filters.category ?? ALL_CATEGORIES}
          onChange={(v) => set('category', v)}
        >
          <option value={ALL_CATEGORIES}>All categories</option>
          {(data?.categories ?? (filters.category ? [filters.category] : [])).map((category) => (
            <option key={category} value={category}>
              {category}
            </option>
          ))}
        </Choice>
        <Choice label="Period" value={filters.period} onChange={(v) => set('period', v)}>
          {INSIGHT_PERIODS.map((period) => (
            <option key={period} value={period}>
              {PERIOD_LABELS[period]}
            </option>
          ))}
        </Choice>
        <Choice label="Sort teams by" value={sort} onChange={(v) => set('sort', v)}>
          {INSIGHT_SORTS.map((value) => (
            <option key={value} value={value}>
              {SORT_LABELS[value]}
            </option>
          ))}
        </Choice>
      </Card>

      {query.isPending ? (
        <Spinner label="Loading organisation insights..." className="py-16" />
      ) : query.isError ? (
        <LoadFailed title={M.loadFailed} message={query.error.message} onRetry={() => void query.refetch()} />
      ) : data!.teams.length === 0 ? (
        <StateCard
          title={M.noTeams}
          message={
            <>
              <p>{M.noTeamsHint}</p>
              <LeftOut data={data!} />
            </>
          }
        />
      ) : (
        <div className="space-y-6" aria-busy={query.isFetching}>
          <Priorities data={data!} />
          <section aria-labelledby="heat-map-title" className="space-y-3">
            <div>
              <h2 id="heat-map-title" className="text-xl font-semibold text-slate-900">
                Heat map
              </h2>
              <p className="mt-1 text-sm text-slate-600">{M.floorNote}</p>
              <LeftOut data={data!} />
            </div>
            <Legend />
            {data!.rows.length === 0 ? (
              <StateCard message="No components in this category. Choose another category." />
            ) : (
              <>
                <div className={teams.length > ALL_COLUMNS_UP_TO ? 'print:hidden' : undefined}>
                  <HeatMap data={data!} teams={columns} />
                </div>
                {printing && teams.length > ALL_COLUMNS_UP_TO && <TeamTable teams={teams} />}
              </>
            )}
          </section>
        </div>
      )}
      <ActionsSection organizationId={organizationId} period={filters.period} />
      <LoopsSection organizationId={organizationId} period={filters.period} />
    </div>
  );
}

/** How many teams the Organisation column pools, and which are left out and why. */
function LeftOut({ data }: { data: InsightsResponse }) {
  const below = data.leftOut.filter((t) => t.reason === 'below-floor');
  const none = data.leftOut.filter((t) => t.reason === 'no-check');
  const pooled = data.organisation.teams;
  return (
    <div className="mt-2 text-sm text-slate-700" data-testid="left-out">
      <p>
        {`The Organisation column pools ${countOf(pooled, 'team')}. `}
        {data.leftOut.length === 0
          ? 'No team is left out.'
          : `${countOf(data.leftOut.length, 'team is', 'teams are')} left out: ${below.length} with fewer responses than their minimum, ${none.length} with no completed health check in this period.`}
      </p>
      {data.leftOut.length > 0 && (
        <details className="mt-1">
          <summary className="cursor-pointer text-brand-700">Teams left out</summary>
          <ul className="mt-1 list-disc pl-5">
            {data.leftOut.map((team) => (
              <li key={team.id}>
                {team.name}:{' '}
                {team.reason === 'below-floor'
                  ? 'fewer responses than the minimum'
                  : 'no completed health check in this period'}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

function Legend() {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-2 text-xs text-slate-700" aria-label="Legend">
      {(['Mostly Healthy', 'Mixed Health', 'Needs Attention', 'Needs Immediate Attention'] as const).map(
        (label) => (
          <li key={label} className="flex items-center gap-1.5">
            <span className={`rounded px-1.5 py-0.5 font-semibold ${TONES[label]}`}>
              {SHORT_LABELS[label]}
            </span>
            {label}
          </li>
        ),
      )}
      <li className="flex items-center gap-1">
        <TrendArrow trend="better" /> better
      </li>
      <li className="flex items-center gap-1">
        <TrendArrow trend="same" /> same
      </li>
      <li className="flex items-center gap-1">
        <TrendArrow trend="worse" /> worse than the team&apos;s previous check
      </li>
    </ul>
  );
}

/** Where to help first: components most often in the teams' top 3, and the teams whose health fell most. */
function Priorities({ data }: { data: InsightsResponse }) {
  const byKey = new Map(data.teams.map((t) => [t.id, t]));
  return (
    <div className="grid gap-4 md:grid-cols-2" data-print-block>
      <SectionCard
        title="Most often in teams' top 3"
        description="The areas teams ranked highest to fix (fire warnings, then dots, then needs improvement)."
      >
        {data.priorities.components.length === 0 ? (
          <p className="text-sm text-slate-600">No team has ratings to rank yet.</p>
        ) : (
          <ol className="space-y-2" data-testid="top-components">
            {data.priorities.components.map((c) => (
              <li key={c.key} className="flex items-baseline justify-between gap-3 text-sm">
                <span className="min-w-0">
                  <span className="font-medium text-slate-900">{c.title}</span>
                  <span className="block text-xs text-slate-600">{c.category}</span>
                </span>
                <span className="shrink-0 text-slate-700">{countOf(c.teams, 'team')}</span>
              </li>
            ))}
          </ol>
        )}
      </SectionCard>
      <SectionCard
        title="Health fell most"
        description="Teams whose health score dropped since their previous health check, in points."
      >
        {data.priorities.falling.length === 0 ? (
          <p className="text-sm text-slate-600">No team&apos;s health fell since its previous check.</p>
        ) : (
          <ol className="space-y-2" data-testid="falling-teams">
            {data.priorities.falling.map((t) => (
              <li key={t.id} className="flex items-baseline justify-between gap-3 text-sm">
                <span className="min-w-0">
                  {byKey.get(t.id) ? (
                    <Link
                      to={`/admin/health-check/${byKey.get(t.id)!.check.id}/results`}
                      className="font-medium text-brand-700 hover:underline"
                    >
                      {t.name}
                    </Link>
                  ) : (
                    <span className="font-medium">{t.name}</span>
                  )}
                  <span className="block text-xs text-slate-600">
                    {t.from} → {t.to}
                  </span>
                </span>
                <span className="shrink-0 font-medium text-red-800">{t.change} pts</span>
              </li>
            ))}
          </ol>
        )}
      </SectionCard>
    </div>
  );
}

/** For print, when the map is too wide for paper: each team on a line (the CSV has every cell). */
function TeamTable({ teams }: { teams: InsightsResponse['teams'] }) {
  return (
    <div className="hidden print:block">
      <p className="text-sm text-slate-700">
        {teams.length} teams are too many columns for paper: here is each team&apos;s overall health; the CSV
        has every cell.
      </p>
      <table className="mt-2 w-full text-left text-sm">
        <thead>
          <tr>
            <th scope="col">Team</th>
            <th scope="col">Health check</th>
            <th scope="col">Responses</th>
            <th scope="col">Overall health</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {teams.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>{t.check.title}</td>
              <td>{t.responses}</td>
              <td>{t.overallHealth}</td>
              <td>{t.change === null ? '' : `${t.change} pts`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
