import { integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { healthChecks } from './health-checks';

/**
 * Organisation insights read completed checks only, whose ratings and dots no longer change (PRODUCT-DECISIONS 1
 * and 2), so each completed check is summed once, in SQL, the first time insights need it (decision 0010): its
 * completed participants here, its counts per component key in health_check_tallies.
 */
const summarizedCheck = () =>
  uuid('health_check_id')
    .notNull()
    .references(() => healthChecks.id, { onDelete: 'cascade' });

export const healthCheckSummaries = pgTable('health_check_summaries', {
  healthCheckId: summarizedCheck().primaryKey(),
  completed: integer('completed').notNull(),
  createdAt: createdAt(),
});

export const healthCheckTallies = pgTable(
  'health_check_tallies',
  {
    healthCheckId: summarizedCheck(),
    key: text('key').notNull(),
    orderIndex: integer('order_index').notNull(),
    healthy: integer('healthy').notNull(),
    needsImprovement: integer('needs_improvement').notNull(),
    fireWarning: integer('fire_warning').notNull(),
    dontKnow: integer('dont_know').notNull(),
    dots: integer('dots').notNull(),
  },
  (t) => [primaryKey({ columns: [t.healthCheckId, t.key] })],
);
