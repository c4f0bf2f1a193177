/**
 * The words of the server's CSV files (issue 34, decision 0027): their headers and their own words, catalogue keys
 * of the server's `csv` area (apps/server/messages/<language>/csv.json), or the shared words where the same word
 * exists (the ratings' names). Each file says them in the downloader's language (`downloaderLanguage`); English
 * says exactly what the files said before. Numbers stay numbers, so a spreadsheet reads them in any language.
 */
import { FOLLOW_UP_MESSAGES } from '@pulsecheck/shared/action-items/follow-up';
import type { InsightPeriod } from '@pulsecheck/shared/insights/rules';
import type { HealthLabel, TrendDirection } from '@pulsecheck/shared/results/rules';
import type { Translator } from '@pulsecheck/shared/i18n/translate';

/** The ratings' names: the participation screen's own words. */
const RATINGS = [
  'participation.ratingHealthy',
  'participation.ratingNeedsImprovement',
  'participation.ratingFireWarning',
  'csv.dontKnow',
] as const;

/** The results CSV's columns (exportResultsCsv). */
export const RESULTS_CSV_COLUMNS = [
  'csv.rank',
  'csv.component',
  'csv.category',
  ...RATINGS,
  'csv.totalRatings',
  'csv.dots',
  'csv.trend',
  'csv.actionItems',
  FOLLOW_UP_MESSAGES.sectionTitle,
] as const;

/** Loop Results' CSV columns (loopResultsCsv). */
export const LOOP_RESULTS_CSV_COLUMNS = [
  'csv.loop',
  'csv.round',
  'csv.question',
  'csv.kind',
  'csv.value',
  'csv.count',
  'csv.share',
  'csv.mean',
  'csv.enps',
  'csv.answer',
  'csv.author',
] as const;

/** The insights heat map's CSV columns (exportInsightsCsv). */
export const INSIGHTS_CSV_COLUMNS = [
  'csv.category',
  'csv.component',
  'actionItems.worked.team',
  'csv.healthCheck',
  'csv.completed',
  'dashboard.csvResponses',
  ...RATINGS,
  'csv.health',
  'csv.trend',
] as const;

/** A component's change against the previous check, as the API names it ('better'…), in words. */
export const TREND_WORDS: Record<TrendDirection, string> = {
  better: 'csv.trendBetter',
  same: 'csv.trendSame',
  worse: 'csv.trendWorse',
};

/** An action item's status, as the API names it ('in-progress'…), in words. */
export const ACTION_STATUS_WORDS: Record<string, string> = {
  pending: 'csv.statusPending',
  'in-progress': 'csv.statusInProgress',
  completed: 'csv.statusCompleted',
};

/** A loop question's kind (and a round's follow-up on actions), in words. */
export const QUESTION_KIND_WORDS: Record<string, string> = {
  scale: 'csv.kindScale',
  enps: 'csv.kindEnps',
  text: 'csv.kindText',
  'follow-up': 'csv.kindFollowUp',
};

/** Overall health (results/rules.ts `overallHealth`), in words. */
export const HEALTH_WORDS: Record<HealthLabel, string> = {
  'No Data': 'csv.healthNoData',
  'No Ratings': 'csv.healthNoRatings',
  'Needs Immediate Attention': 'csv.healthImmediate',
  'Needs Attention': 'csv.healthAttention',
  'Mostly Healthy': 'csv.healthMostly',
  'Mixed Health': 'csv.healthMixed',
};

/** The insights' periods, in words. */
export const PERIOD_WORDS: Record<InsightPeriod, string> = {
  '90d': 'csv.period90d',
  '180d': 'csv.period180d',
  '365d': 'csv.period365d',
  all: 'csv.periodAll',
};

/** A CSV's header row in `words`' language. */
export const csvHeader = (columns: readonly string[], words: Pick<Translator, 't'>) =>
  columns.map((key) => words.t(key));

/** A value the API names (a status, a kind…) in words, when `names` knows it; else as it is. */
export const wordFor = (names: Record<string, string>, value: string, words: Pick<Translator, 't'>) => {
  const key = names[value];
  return key ? words.t(key) : value;
};
