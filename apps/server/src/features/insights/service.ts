import {
  poolWorked,
  shareOf,
  workedFigures,
  type WorkedFigures,
} from '@pulsecheck/shared/action-items/worked';
import { csvFile } from '@pulsecheck/shared/api/csv';
import {
  cellCounts,
  cellLabel,
  healthScore,
  periodStart,
  sortTeams,
  type InsightPeriod,
  type InsightSort,
} from '@pulsecheck/shared/insights/rules';
import {
  INSIGHTS_MESSAGES,
  type ActionInsightsResponse,
  type LoopInsightRow,
  type LoopInsightsResponse,
  type InsightCell,
  type InsightsResponse,
  type InsightTeam,
} from '@pulsecheck/shared/insights/schemas';
import {
  componentTrend,
  HIGHLIGHTED_TOP,
  overallHealth,
  prioritize,
  type RatingCounts,
} from '@pulsecheck/shared/results/rules';
import type { Locale } from '@pulsecheck/shared/i18n/languages';
import { enpsSummary, responseRate, type EnpsGroups } from '@pulsecheck/shared/loops/stats';
import { recordAudit, type AuditBy } from '../../audit/record';
import { requireOrganization } from '../../auth/access';
import { CATALOGUE } from '../../db/catalogue';
import type { SummaryCell } from '../../db/schema/insights';
import { translatorFor } from '../../lib/i18n';
import type { AppDeps } from '../../lib/router';
import { storeOrganizationFollowUpCounts } from '../follow-ups/service';
import * as q from './queries';
import { canonicalContent, localizeContent } from '../../lib/content-language';
import {
  csvHeader,
  HEALTH_WORDS,
  INSIGHTS_CSV_COLUMNS,
  PERIOD_WORDS,
  TREND_WORDS,
} from '../../lib/csv-words';

type Deps = Pick<AppDeps, 'db'>;
type Options = {
  userId: string;
  organizationId: string;
  period: InsightPeriod;
  category?: string | undefined;
};

const CATEGORIES = [...new Set(CATALOGUE.map((c) => c.category))];
const COMPONENTS = new Map(CATALOGUE.map((c) => [c.key, c]));
const PRIORITIES_SHOWN = 5;
/** The category filter as the catalogue stores it: the web sends the name it shows, in its language. */
const inEnglish = <T extends Options>(options: T): T => ({
  ...options,
  category: options.category && canonicalContent(options.category),
});

const cellOf = (c: RatingCounts, trend: InsightCell[4] = null): InsightCell => [
  c.healthy,
  c.needsImprovement,
  c.fireWarning,
  c.dontKnow,
  trend,
];
const points = (value: number) => Math.round(value * 10) / 10;
type Tally = RatingCounts & {
  key: string;
  orderIndex: number;
  shown: boolean;
  dots: number;
  /** The same component in the team's previous check that shows it (the arrow's other end). */
  before: RatingCounts | null;
};
const tally = ([key, orderIndex, shown, h, n, f, d, dots, bh, bn, bf, bd]: SummaryCell): Tally => ({
  key,
  orderIndex,
  shown,
  healthy: h,
  needsImprovement: n,
  fireWarning: f,
  dontKnow: d,
  dots,
  before:
    bh === null ? null : { healthy: bh, needsImprovement: bn ?? 0, fireWarning: bf ?? 0, dontKnow: bd ?? 0 },
});

/**
 * The organisation's heat map (issue 16), for its owner and organisation admins only (404 for anyone else): each
 * workspace's latest completed check within the period, per catalogue component, under the privacy floor
 * (privacyFloor: the check's own minimum, never fewer than 3), with the arrow against the team's previous check of
 * that component, the Organisation column pooling only the teams shown, and the priorities.
 */
export async function getInsights(deps: Deps, given: Options): Promise<InsightsResponse> {
  const options = inEnglish(given);
  const { db } = deps;
  const { name } = await requireOrganization(db, options.userId, options.organizationId);
  await q.summarizeCompletedChecks(db, options.organizationId);
  const teamRows = await q.teams(db, options.organizationId);
  const since = periodStart(options.period, new Date());

  const rows = CATEGORIES.filter((c) => !options.category || c === options.category).map((category) => ({
    category,
    components: CATALOGUE.filter((c) => c.category === category).map((c) => ({ key: c.key, title: c.title })),
  }));
  const inRows = new Set(rows.flatMap((r) => r.components.map((c) => c.key)));

  const teams: InsightTeam[] = [];
  const leftOut: InsightsResponse['leftOut'] = [];
  const topCounts = new Map<string, number>();
  const falling: InsightsResponse['priorities']['falling'] = [];
  // The Organisation column: the shown cells of the shown teams, and nothing else.
  const pooled = new Map<string, RatingCounts>();
  const pool = (c: RatingCounts & { key: string }) => {
    const sum = pooled.get(c.key);
    if (!sum) return void pooled.set(c.key, { ...c });
    sum.healthy += c.healthy;
    sum.needsImprovement += c.needsImprovement;
    sum.fireWarning += c.fireWarning;
    sum.dontKnow += c.dontKnow;
  };
  for (const row of teamRows) {
    const completedAt = row.completedAt ? new Date(row.completedAt) : null;
    if (!row.checkId || !completedAt || (since && completedAt < since)) {
      leftOut.push({ id: row.id, name: row.name, reason: 'no-check' });
      continue;
    }
    if (!row.shown || !row.totals) {
      leftOut.push({ id: row.id, name: row.name, reason: 'below-floor' });
      continue;
    }
    const shown: Tally[] = [];
    const cells: InsightTeam['cells'] = {};
    const hidden: string[] = [];
    for (const summary of row.cells ?? []) {
      const c = tally(summary);
      if (!c.shown) {
        if (inRows.has(c.key)) hidden.push(c.key);
        continue;
      }
      shown.push(c);
      pool(c);
      if (inRows.has(c.key)) cells[c.key] = cellOf(c, c.before && componentTrend(c, c.before));
    }
    // The team's totals are its shown cells summed (in SQL): the same label as overallHealth(shown).
    const health = shown.length === 0 ? overallHealth([]) : overallHealth([row.totals]);
    const score = healthScore(row.totals);
    const before = row.previous ? healthScore(row.previous) : null;
    const change = score !== null && before !== null ? points(score - before) : null;
    teams.push({
      id: row.id,
      name: row.name,
      check: { id: row.checkId, title: row.checkTitle ?? '', completedAt: completedAt.toISOString() },
      responses: row.responses ?? 0,
      overallHealth: health,
      score,
      change,
      cells,
      hidden,
    });
    for (const top of prioritize(shown).slice(0, HIGHLIGHTED_TOP))
      topCounts.set(top.key, (topCounts.get(top.key) ?? 0) + 1);
    if (change !== null && change < 0 && row.previous)
      falling.push({ id: row.id, name: row.name, change, from: overallHealth([row.previous]), to: health });
  }
  const organisationCells: InsightTeam['cells'] = {};
  for (const [key, sum] of pooled) if (inRows.has(key)) organisationCells[key] = cellOf(sum);

  return {
    organization: { id: options.organizationId, name },
    period: options.period,
    since: since?.toISOString() ?? null,
    category: options.category || null,
    rows,
    categories: CATEGORIES,
    teams,
    leftOut,
    organisation: {
      teams: teams.length,
      cells: organisationCells,
      overallHealth: teams.length > 0 ? overallHealth([...pooled.values()]) : null,
    },
    priorities: {
      components: [...topCounts]
        .sort(([a, x], [b, y]) => y - x || CATALOGUE_ORDER(a) - CATALOGUE_ORDER(b))
        .slice(0, PRIORITIES_SHOWN)
        .map(([key, count]) => ({
          key,
          title: COMPONENTS.get(key)?.title ?? key,
          category: COMPONENTS.get(key)?.category ?? '',
          teams: count,
        })),
      falling: falling.sort((a, b) => a.change - b.change).slice(0, PRIORITIES_SHOWN),
    },
  };
}

const CATALOGUE_ORDER = (key: string) => CATALOGUE.findIndex((c) => c.key === key);

/**
 * The heat map as CSV, one line per cell (the Organisation column last), under the same rules as the page; each
 * download is recorded in the audit log (who, which view; never a figure of it). Its header and its words in
 * `locale`, the downloader's language, the catalogue's categories and components too; teams' and checks' names as
 * written, numbers as numbers.
 */
export async function exportInsightsCsv(
  deps: Deps,
  given: Options & { sort: InsightSort; by: AuditBy; locale: Locale },
) {
  const options = inEnglish(given);
  const { locale } = options;
  const words = translatorFor(locale);
  const insights = await getInsights(deps, options);
  const teams = sortTeams(insights.teams, options.sort);
  const health = (counts: Parameters<typeof cellCounts>[0]) =>
    words.t(HEALTH_WORDS[cellLabel(cellCounts(counts))]);
  const trend = (direction: InsightCell[4]) => (direction ? words.t(TREND_WORDS[direction]) : null);
  const lines: (string | number | null)[][] = [csvHeader(INSIGHTS_CSV_COLUMNS, words)];
  for (const row of insights.rows) {
    const category = localizeContent(locale, row.category, 'category');
    for (const component of row.components) {
      const title = localizeContent(locale, component.title, 'title');
      for (const team of teams) {
        const cell = team.cells[component.key];
        const hidden = team.hidden.includes(component.key);
        const counts = cell ? cell.slice(0, 4) : [null, null, null, null];
        lines.push([
          category,
          title,
          team.name,
          localizeContent(locale, team.check.title, 'title'),
          team.check.completedAt.slice(0, 10),
          team.responses,
          ...(counts as (number | null)[]),
          cell ? health(cell) : words.t(hidden ? INSIGHTS_MESSAGES.belowFloor : INSIGHTS_MESSAGES.notInCheck),
          trend(cell?.[4] ?? null),
        ]);
      }
      const pooled = insights.organisation.cells[component.key];
      if (pooled)
        lines.push([
          category,
          title,
          words.t('csv.organisationTeams', { count: insights.organisation.teams }),
          words.t(PERIOD_WORDS[insights.period]),
          null,
          null,
          ...pooled.slice(0, 4),
          health(pooled),
          null,
        ]);
    }
  }
  const slug = insights.organization.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  await deps.db.transaction((tx) =>
    recordAudit(tx, options.organizationId, options.by, {
      action: 'results.exported',
      targetType: 'organization',
      targetId: options.organizationId,
      targetLabel: insights.organization.name,
      changes: {
        format: 'csv',
        report: 'insights',
        period: options.period,
        category: options.category ?? null,
        sort: options.sort,
      },
    }),
  );
  return { csv: csvFile(lines), filename: `${slug || 'organisation'}-insights.csv` };
}

const iso = (value: string | Date) => new Date(value).toISOString();
/** An eNPS figure from its groups (stats.ts), null without answers. */
function enpsFigure(groups: EnpsGroups) {
  const { score, answers } = enpsSummary(groups);
  return score === null ? null : { score, answers };
}

/**
 * The Loops section of organisation insights (issue 16), for the owner and organisation admins only (404 for
 * anyone else): each loop's latest round closed in the period, its participation and eNPS, shown only when that
 * round reached the floor (privacyFloor: the round's minimum, never fewer than 3; its eNPS question needs that many
 * answers too); and the organisation's trend by month, pooled over the loops shown and only their rounds that
 * reached the floor, so no hidden loop's figure can be had by subtracting the shown ones from it. One statement,
 * over the counts stored when rounds closed.
 */
export async function getLoopInsights(
  deps: Deps,
  options: { userId: string; organizationId: string; period: InsightPeriod },
): Promise<LoopInsightsResponse> {
  await requireOrganization(deps.db, options.userId, options.organizationId);
  const since = periodStart(options.period, new Date());
  const { latest, trend } = await q.loopInsights(deps.db, options.organizationId, since);
  const loops: LoopInsightRow[] = [];
  const leftOut: LoopInsightsResponse['leftOut'] = [];
  for (const row of latest) {
    const workspace = { id: row.workspace_id, name: row.workspace_name };
    if (!row.shown) {
      leftOut.push({ id: row.loop_id, title: row.title, workspace });
      continue;
    }
    const groups = { promoters: row.promoters, passives: row.passives, detractors: row.detractors };
    const enpsAnswers = groups.promoters + groups.passives + groups.detractors;
    const enpsState = !row.has_enps ? 'none' : enpsAnswers >= row.floor ? 'shown' : 'below-floor';
    loops.push({
      id: row.loop_id,
      title: row.title,
      workspace,
      round: {
        id: row.round_id,
        number: row.number,
        openedAt: iso(row.opened_at),
        closedAt: iso(row.closed_at),
        audience: row.audience,
        answered: row.answered,
        participation: responseRate(row.answered, row.audience),
      },
      enpsState,
      enps: enpsState === 'shown' ? enpsFigure(groups) : null,
    });
  }
  const shownTeams = new Set(loops.map((l) => l.workspace.id));
  return {
    period: options.period,
    since: since?.toISOString() ?? null,
    loops,
    leftOut,
    trend: trend.map((month) => ({
      month: month.month,
      rounds: month.rounds,
      teams: month.teams,
      audience: month.audience,
      answered: month.answered,
      participation: responseRate(month.answered, month.audience),
      enps: enpsFigure({
        promoters: month.promoters,
        passives: month.passives,
        detractors: month.detractors,
      }),
    })),
    pooled: {
      loops: loops.length,
      teams: shownTeams.size,
      leftOutLoops: leftOut.length,
      leftOutTeams: new Set(leftOut.map((l) => l.workspace.id).filter((id) => !shownTeams.has(id))).size,
    },
  };
}

const countsOf = (tuple: [number, number, number, number] | null): RatingCounts | null =>
  tuple && { healthy: tuple[0], needsImprovement: tuple[1], fireWarning: tuple[2], dontKnow: tuple[3] };
const workedRow = (f: WorkedFigures) => ({
  done: f.done,
  asked: f.asked,
  answered: f.answered,
  workedShare: shareOf(f.worked, f.answered),
  compared: f.compared,
  improvedShare: shareOf(f.improved, f.compared),
});

/**
 * 'Actions that worked' (issue 33 item 5, decision 0019), for the owner and organisation admins only (404 for
 * anyone else): per team with an action item done in the period, and for the organisation, how many were done and
 * asked about, the share of answers 'Yes' or 'Partly' (only questions that reach the floor count) and the share
 * whose component improved by the next check; the organisation pools the team rows and nothing else (poolWorked).
 * One statement over the checks' sums and the questions' stored counts, never the answers.
 */
export async function getActionInsights(
  deps: Deps,
  options: { userId: string; organizationId: string; period: InsightPeriod },
): Promise<ActionInsightsResponse> {
  const { db } = deps;
  await requireOrganization(db, options.userId, options.organizationId);
  await q.summarizeCompletedChecks(db, options.organizationId);
  await storeOrganizationFollowUpCounts(db, options.organizationId);
  const since = periodStart(options.period, new Date());
  const rows = await q.workedActions(db, options.organizationId, since);
  const teams = rows.map((row) => ({
    id: row.id,
    name: row.name,
    figures: workedFigures(
      row.actions.map(([asked, checkShown, floor, counts, before, after]) => ({
        asked,
        checkShown,
        floor,
        counts,
        before: countsOf(before),
        after: countsOf(after),
      })),
    ),
  }));
  return {
    period: options.period,
    since: since?.toISOString() ?? null,
    teams: teams.map((t) => ({ id: t.id, name: t.name, ...workedRow(t.figures) })),
    organisation: { teams: teams.length, ...workedRow(poolWorked(teams.map((t) => t.figures))) },
  };
}
