import {
  DEFAULT_PERIOD,
  INSIGHT_PERIODS,
  INSIGHT_SORTS,
  PERIOD_LABELS,
  SHORT_LABELS,
  SORT_LABELS,
  sortTeams,
} from '@pulsecheck/shared/insights/rules';
import { HEALTH_LABEL_MESSAGES } from '@pulsecheck/shared/results/rules';
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
import { formats, say, t } from '@/lib/i18n';

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
          <h1 className="text-2xl font-bold text-slate-900">{say(M.title)}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {data ? t('insights.introNamed', { organization: data.organization.name }) : t('insights.intro')}
          </p>
          {data && (
            <p className="mt-1 hidden text-sm text-slate-700 print:block">
              {t('insights.printedView', {
                period: t(PERIOD_LABELS[data.period]),
                category: data.category ?? t('insights.allCategories'),
                sort: t(SORT_LABELS[sort]),
              })}
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
          label={t('insights.category')}
          value={filters.category ?? ALL_CATEGORIES}
          onChange={(v) => set('category', v)}
        >
          <option value={ALL_CATEGORIES}>{t('insights.allCategories')}</option>
          {(data?.categories ?? (filters.category ? [filters.category] : [])).map((category) => (
            <option key={category} value={category}>
              {category}
            </option>
          ))}
        </Choice>
        <Choice label={t('insights.period')} value={filters.period} onChange={(v) => set('period', v)}>
          {INSIGHT_PERIODS.map((period) => (
            <option key={period} value={period}>
              {t(PERIOD_LABELS[period])}
            </option>
          ))}
        </Choice>
        <Choice label={t('insights.sort')} value={sort} onChange={(v) => set('sort', v)}>
          {INSIGHT_SORTS.map((value) => (
            <option key={value} value={value}>
              {t(SORT_LABELS[value])}
            </option>
          ))}
        </Choice>
      </Card>

      {query.isPending ? (
        <Spinner label={t('insights.loading')} className="py-16" />
      ) : query.isError ? (
        <LoadFailed
          title={say(M.loadFailed)}
          message={say(query.error.message)}
          onRetry={() => void query.refetch()}
        />
      ) : data!.teams.length === 0 ? (
        <StateCard
          title={say(M.noTeams)}
          message={
            <>
              <p>{say(M.noTeamsHint)}</p>
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
                {t('insights.heatMap.title')}
              </h2>
              <p className="mt-1 text-sm text-slate-600">{say(M.floorNote)}</p>
              <LeftOut data={data!} />
            </div>
            <Legend />
            {data!.rows.length === 0 ? (
              <StateCard message={t('insights.heatMap.noComponents')} />
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
  const below = data.leftOut.filter((team) => team.reason === 'below-floor');
  const none = data.leftOut.filter((team) => team.reason === 'no-check');
  const pooled = data.organisation.teams;
  return (
    <div className="mt-2 text-sm text-slate-700" data-testid="left-out">
      <p>
        {data.leftOut.length === 0
          ? t('insights.leftOut.none', { pooled })
          : t('insights.leftOut.some', {
              pooled,
              count: data.leftOut.length,
              below: below.length,
              none: none.length,
            })}
      </p>
      {data.leftOut.length > 0 && (
        <details className="mt-1">
          <summary className="cursor-pointer text-brand-700">{t('insights.leftOut.title')}</summary>
          <ul className="mt-1 list-disc ps-5">
            {data.leftOut.map((team) => (
              <li key={team.id}>
                {team.reason === 'below-floor'
                  ? t('insights.leftOut.belowFloor', { team: team.name })
                  : t('insights.leftOut.noCheck', { team: team.name })}
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
    <ul
      className="flex flex-wrap gap-x-4 gap-y-2 text-xs text-slate-700"
      aria-label={t('insights.legend.label')}
    >
      {(['Mostly Healthy', 'Mixed Health', 'Needs Attention', 'Needs Immediate Attention'] as const).map(
        (label) => (
          <li key={label} className="flex items-center gap-1.5">
            <span className={`rounded px-1.5 py-0.5 font-semibold ${TONES[label]}`}>
              {t(SHORT_LABELS[label])}
            </span>
            {t(HEALTH_LABEL_MESSAGES[label])}
          </li>
        ),
      )}
      <li className="flex items-center gap-1">
        <TrendArrow trend="better" /> {t('insights.legend.better')}
      </li>
      <li className="flex items-center gap-1">
        <TrendArrow trend="same" /> {t('insights.legend.same')}
      </li>
      <li className="flex items-center gap-1">
        <TrendArrow trend="worse" /> {t('insights.legend.worse')}
      </li>
    </ul>
  );
}

/** Where to help first: components most often in the teams' top 3, and the teams whose health fell most. */
function Priorities({ data }: { data: InsightsResponse }) {
  const byKey = new Map(data.teams.map((team) => [team.id, team]));
  return (
    <div className="grid gap-4 md:grid-cols-2" data-print-block>
      <SectionCard
        title={t('insights.priorities.topTitle')}
        description={t('insights.priorities.topDescription')}
      >
        {data.priorities.components.length === 0 ? (
          <p className="text-sm text-slate-600">{t('insights.priorities.topEmpty')}</p>
        ) : (
          <ol className="space-y-2" data-testid="top-components">
            {data.priorities.components.map((c) => (
              <li key={c.key} className="flex items-baseline justify-between gap-3 text-sm">
                <span className="min-w-0">
                  <span className="font-medium text-slate-900">{c.title}</span>
                  <span className="block text-xs text-slate-600">{c.category}</span>
                </span>
                <span className="shrink-0 text-slate-700">{t('insights.teams', { count: c.teams })}</span>
              </li>
            ))}
          </ol>
        )}
      </SectionCard>
      <SectionCard
        title={t('insights.priorities.fallingTitle')}
        description={t('insights.priorities.fallingDescription')}
      >
        {data.priorities.falling.length === 0 ? (
          <p className="text-sm text-slate-600">{t('insights.priorities.fallingEmpty')}</p>
        ) : (
          <ol className="space-y-2" data-testid="falling-teams">
            {data.priorities.falling.map((team) => (
              <li key={team.id} className="flex items-baseline justify-between gap-3 text-sm">
                <span className="min-w-0">
                  {byKey.get(team.id) ? (
                    <Link
                      to={`/admin/health-check/${byKey.get(team.id)!.check.id}/results`}
                      className="font-medium text-brand-700 hover:underline"
                    >
                      {team.name}
                    </Link>
                  ) : (
                    <span className="font-medium">{team.name}</span>
                  )}
                  <span className="block text-xs text-slate-600">
                    {t(HEALTH_LABEL_MESSAGES[team.from])}{' '}
                    <span className="inline-block rtl:-scale-x-100">→</span>{' '}
                    {t(HEALTH_LABEL_MESSAGES[team.to])}
                  </span>
                </span>
                <span className="shrink-0 font-medium text-red-800">
                  {t('insights.points', { change: formats().number(team.change) })}
                </span>
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
      <p className="text-sm text-slate-700">{t('insights.print.tooMany', { count: teams.length })}</p>
      <table className="mt-2 w-full text-start text-sm">
        <thead>
          <tr>
            <th scope="col">{t('insights.print.team')}</th>
            <th scope="col">{t('insights.print.check')}</th>
            <th scope="col">{t('insights.print.responses')}</th>
            <th scope="col">{t('insights.print.overallHealth')}</th>
            <th scope="col">{t('insights.print.change')}</th>
          </tr>
        </thead>
        <tbody>
          {teams.map((team) => (
            <tr key={team.id}>
              <td>{team.name}</td>
              <td>{team.check.title}</td>
              <td>{formats().number(team.responses)}</td>
              <td>{t(HEALTH_LABEL_MESSAGES[team.overallHealth])}</td>
              <td>
                {team.change === null ? '' : t('insights.points', { change: formats().number(team.change) })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
