import { LOOP_CATALOGUE } from '@pulsecheck/shared/loops/catalogue';
import { sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from './client';
import {
  CATALOGUE,
  GLOBAL_TEMPLATE_DESCRIPTION,
  GLOBAL_TEMPLATE_ID,
  GLOBAL_TEMPLATE_TITLE,
} from './catalogue';
import { healthCheckComponents, templates } from './schema/health-checks';

/**
 * The ON CONFLICT update that refreshes `columns` from the proposed row (`excluded`), only where one of them
 * differs from what is stored: one list, so what is written and what is compared cannot drift apart.
 */
function refresh<K extends string>(columns: Record<K, PgColumn>) {
  const list = Object.values<PgColumn>(columns);
  const excluded = (column: PgColumn) => sql.raw(`excluded.${JSON.stringify(column.name)}`);
  return {
    set: Object.fromEntries(
      Object.entries<PgColumn>(columns).map(([key, column]) => [key, excluded(column)]),
    ),
    setWhere: sql`(${sql.join(list, sql`, `)}) is distinct from (${sql.join(list.map(excluded), sql`, `)})`,
  };
}

/**
 * Creates or refreshes the global templates: the health-check catalogue and the loop catalogue (a loop template's
 * questions and defaults live in `templates.settings`, see features/templates). Safe to run on every start and
 * from several processes; a row already as the catalogue has it is left alone, so a start writes nothing when
 * the catalogue has not changed.
 */
export async function seed(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(templates)
      .values({
        id: GLOBAL_TEMPLATE_ID,
        title: GLOBAL_TEMPLATE_TITLE,
        description: GLOBAL_TEMPLATE_DESCRIPTION,
        type: 'health-check',
        workspaceId: null,
        isGlobal: true,
      })
      .onConflictDoUpdate({
        target: templates.id,
        ...refresh({ title: templates.title, description: templates.description }),
      });
    await tx
      .insert(healthCheckComponents)
      .values(
        CATALOGUE.map((entry, index) => ({
          templateId: GLOBAL_TEMPLATE_ID,
          key: entry.key,
          title: entry.title,
          description: entry.description,
          category: entry.category,
          orderIndex: index,
          enabled: true,
          examples: entry.examples,
        })),
      )
      .onConflictDoUpdate({
        target: [healthCheckComponents.templateId, healthCheckComponents.key],
        ...refresh({
          title: healthCheckComponents.title,
          description: healthCheckComponents.description,
          category: healthCheckComponents.category,
          orderIndex: healthCheckComponents.orderIndex,
          examples: healthCheckComponents.examples,
        }),
      });
    await tx
      .insert(templates)
      .values(
        LOOP_CATALOGUE.map(({ id, title, description, questions, defaults }) => ({
          id,
          title,
          description,
          type: 'loop',
          workspaceId: null,
          isGlobal: true,
          settings: { questions, defaults },
        })),
      )
      .onConflictDoUpdate({
        target: templates.id,
        ...refresh({
          title: templates.title,
          description: templates.description,
          settings: templates.settings,
        }),
      });
  });
}
