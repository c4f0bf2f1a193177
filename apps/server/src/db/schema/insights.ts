import { boolean, index, integer, json, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, instant } from './columns';
import { healthChecks } from './health-checks';
import { workspaceRef } from './organizations';

/**
 * Organisation insights read completed checks only, whose ratings, dots, settings and completion time no longer
 * change (PRODUCT-DECISIONS 1 to 3), so each completed check is summed once, in SQL, the first time insights need
 * it (decision 0011), with what the privacy floor shows of it and its link to the team's previous shown check.
 */
const summarizedCheck = () =>
  uuid('health_check_id')
    .notNull()
    .references(() => healthChecks.id, { onDelete: 'cascade' });

/** Sums of the rating counts (over the shown catalogue components, for a check; of one component, for a tally). */
const counts = () => ({
  healthy: integer('healthy').notNull(),
  needsImprovement: integer('needs_improvement').notNull(),
  fireWarning: integer('fire_warning').notNull(),
  dontKnow: integer('dont_know').notNull(),
});

export type SummaryCell = [
  key: string,
  orderIndex: number,
  shown: boolean,
  healthy: number,
  needsImprovement: number,
  fireWarning: number,
  dontKnow: number,
  dots: number,
  beforeHealthy: number | null,
  beforeNeedsImprovement: number | null,
  beforeFireWarning: number | null,
  beforeDontKnow: number | null,
];

export const healthCheckSummaries = pgTable(
  'health_check_summaries',
  {
    healthCheckId: summarizedCheck().primaryKey(),
    workspaceId: workspaceRef(),
    completedAt: instant('completed_at').notNull(),
    /** Completed participants. */
    completed: integer('completed').notNull(),
    /** The responses its figures need (privacyFloor of its minResponses). */
    floor: integer('floor').notNull(),
    /** Whether any of its figures may be shown: completed >= floor. */
    shown: boolean('shown').notNull(),
    ...counts(),
    /** The workspace's latest shown check completed before this one (its team trend); null without one. */
    previousHealthCheckId: uuid('previous_health_check_id'),
    /**
     * Its catalogue components' tallies as the heat map reads them, one JSON array per component: key, order index,
     * shown, the four counts, dots, the four counts of the arrow's earlier check (null without one). One value per
     * check, so a 500-team map reads 500 values instead of 14,500 rows.
     */
    cells: json('cells').$type<SummaryCell[]>(),
    /** Whether the previous-check links of it and its tallies are set. */
    linked: boolean('linked').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('health_check_summaries_workspace_idx').on(t.workspaceId, t.completedAt)],
);

export const healthCheckTallies = pgTable(
  'health_check_tallies',
  {
    healthCheckId: summarizedCheck(),
    key: text('key').notNull(),
    orderIndex: integer('order_index').notNull(),
    ...counts(),
    dots: integer('dots').notNull(),
    /** Whether this figure may be shown: its check is shown and its ratings reach the check's floor. */
    shown: boolean('shown').notNull(),
    /** The same component in the workspace's latest earlier check that shows it (the arrow); null without one. */
    beforeHealthy: integer('before_healthy'),
    beforeNeedsImprovement: integer('before_needs_improvement'),
    beforeFireWarning: integer('before_fire_warning'),
    beforeDontKnow: integer('before_dont_know'),
  },
  (t) => [primaryKey({ columns: [t.healthCheckId, t.key] })],
);
