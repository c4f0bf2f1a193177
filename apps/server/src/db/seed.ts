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

/** Whether the proposed row (`excluded`) differs from the stored one in any of `columns`. */
const changed = (...columns: PgColumn[]) =>
  sql`(${sql.join(columns, sql`, `)}) is distinct from (${sql.join(
    columns.map((column) => sql.raw(`excluded.${JSON.stringify(column.name)}`)),
    sql`, `,
  )})`;

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
        set: { title: sql`excluded.title`, description: sql`excluded.description` },
        setWhere: changed(templates.title, templates.description),
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
        set: {
          title: sql`excluded.title`,
          description: sql`excluded.description`,
          category: sql`excluded.category`,
          orderIndex: sql`excluded.order_index`,
          examples: sql`excluded.examples`,
        },
        setWhere: changed(
          healthCheckComponents.title,
          healthCheckComponents.description,
          healthCheckComponents.category,
          healthCheckComponents.orderIndex,
          healthCheckComponents.examples,
        ),
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
        set: {
          title: sql`excluded.title`,
          description: sql`excluded.description`,
          settings: sql`excluded.settings`,
        },
        setWhere: changed(templates.title, templates.description, templates.settings),
      });
  });
}
