import { LOOP_CATALOGUE } from '@pulsecheck/shared/loops/catalogue';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../test/harness';
import { CATALOGUE, GLOBAL_TEMPLATE_ID } from './catalogue';
import { queryRows } from './client';
import { user } from './schema/auth';
import {
  healthCheckComponents,
  healthCheckRatings,
  healthChecks,
  participants,
  templates,
} from './schema/health-checks';
import { organizations, workspaces } from './schema/organizations';
import { seed } from './seed';

const database = useTestDatabase();

const rows = <T>(query: SQL) => queryRows<T>(database.db, query);

describe('migrations', () => {
  it('create every table of the domain', async () => {
    const tables = await rows<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = current_schema()`,
    );
    const names = tables.map((t) => t.table_name);
    for (const table of [
      'user',
      'session',
      'account',
      'verification',
      'rate_limit',
      'organizations',
      'workspaces',
      'workspace_members',
      'departments',
      'user_preferences',
      'templates',
      'health_check_components',
      'health_checks',
      'participants',
      'health_check_ratings',
      'comments',
      'loops',
      'loop_questions',
      'loop_audience',
      'loop_rounds',
      'loop_round_recipients',
      'loop_round_ledger',
      'loop_responses',
      'loop_answers',
      'loop_round_counts',
    ]) {
      expect(names).toContain(table);
    }
  });

  it('allow one rating per participant and component, and only the four rating values', async () => {
    const db = database.db;
    const [owner] = await db
      .insert(user)
      .values({ id: 'u-constraints', name: 'Owner', email: 'owner-constraints@example.com' })
      .returning();
    const [org] = await db.insert(organizations).values({ name: 'Org', createdBy: owner!.id }).returning();
    const [ws] = await db
      .insert(workspaces)
      .values({ name: 'WS', organizationId: org!.id, isDefault: true })
      .returning();
    const [check] = await db
      .insert(healthChecks)
      .values({
        title: 'Check',
        workspaceId: ws!.id,
        templateId: GLOBAL_TEMPLATE_ID,
        createdBy: owner!.id,
        settings: {
          minResponses: 3,
          allowAnonymous: true,
          enableComments: true,
          votesPerPerson: 5,
          showResultsAfterVoting: true,
        },
      })
      .returning();
    const [participant] = await db
      .insert(participants)
      .values({ healthCheckId: check!.id, userId: owner!.id })
      .returning();
    const [component] = await db
      .select()
      .from(healthCheckComponents)
      .where(
        and(eq(healthCheckComponents.templateId, GLOBAL_TEMPLATE_ID), eq(healthCheckComponents.key, 'c1')),
      );
    const rating = { healthCheckId: check!.id, componentId: component!.id, participantId: participant!.id };
    await db.insert(healthCheckRatings).values({ ...rating, rating: 'healthy' });
    await expect(
      db.insert(healthCheckRatings).values({ ...rating, rating: 'fire-warning' }),
    ).rejects.toThrow();
    const [other] = await db.select().from(healthCheckComponents).where(eq(healthCheckComponents.key, 'c2'));
    await expect(
      db.insert(healthCheckRatings).values({ ...rating, componentId: other!.id, rating: 'great' }),
    ).rejects.toThrow();
    // A second organisation for the same admin is refused: set-up runs once.
    await expect(db.insert(organizations).values({ name: 'Org 2', createdBy: owner!.id })).rejects.toThrow();
  });
});

describe('seed', () => {
  it('creates the global Team Health Check with the 29 components in the spec order', async () => {
    const [template] = await database.db.select().from(templates).where(eq(templates.id, GLOBAL_TEMPLATE_ID));
    expect(template).toMatchObject({
      title: 'Team Health Check',
      isGlobal: true,
      workspaceId: null,
      type: 'health-check',
    });
    const components = await database.db
      .select()
      .from(healthCheckComponents)
      .where(eq(healthCheckComponents.templateId, GLOBAL_TEMPLATE_ID))
      .orderBy(healthCheckComponents.orderIndex);
    expect(components.map((c) => c.key)).toEqual(Array.from({ length: 29 }, (_, i) => `c${i + 1}`));
    expect([...new Set(components.map((c) => c.category))]).toEqual([
      'How we communicate',
      'How we meet',
      'How We Differ',
      'How we work',
      'How we lead',
      'How we win',
      'How we behave',
      'How we grow',
      'How We Share',
    ]);
    for (const component of components) {
      expect(component.enabled).toBe(true);
      expect(component.title).toMatch(/^\p{Extended_Pictographic}/u);
      expect(component.description).toBeTruthy();
      expect(component.examples.length).toBeGreaterThanOrEqual(2);
      expect(component.examples.length).toBeLessThanOrEqual(3);
    }
  });

  it('is idempotent', async () => {
    await seed(database.db);
    await seed(database.db);
    const [{ count } = { count: 0 }] = await rows<{ count: number }>(
      sql`select count(*)::int as count from health_check_components where template_id = ${GLOBAL_TEMPLATE_ID}`,
    );
    expect(count).toBe(CATALOGUE.length);
    const [{ templatesCount } = { templatesCount: 0 }] = await rows<{ templatesCount: number }>(
      sql`select count(*)::int as "templatesCount" from templates where is_global`,
    );
    expect(templatesCount).toBe(1 + LOOP_CATALOGUE.length);
  });

  it('writes nothing when the catalogue has not changed, and puts back a row that differs from it', async () => {
    // xmin is the transaction that last wrote a row: an unchanged row keeps it.
    const versions = () =>
      rows<{ id: string; xmin: string }>(
        sql`select id, xmin::text from templates where is_global
            union all select id, xmin::text from health_check_components where template_id = ${GLOBAL_TEMPLATE_ID}
            order by id`,
      );
    const before = await versions();
    await seed(database.db);
    expect(await versions()).toEqual(before);

    const [loop] = LOOP_CATALOGUE;
    await database.db
      .update(healthCheckComponents)
      .set({ title: 'Edited by hand', orderIndex: 99 })
      .where(
        and(eq(healthCheckComponents.templateId, GLOBAL_TEMPLATE_ID), eq(healthCheckComponents.key, 'c1')),
      );
    await database.db
      .update(templates)
      .set({ settings: {} })
      .where(eq(templates.id, loop?.id ?? ''));
    await seed(database.db);
    const [c1] = await database.db
      .select()
      .from(healthCheckComponents)
      .where(
        and(eq(healthCheckComponents.templateId, GLOBAL_TEMPLATE_ID), eq(healthCheckComponents.key, 'c1')),
      );
    expect(c1).toMatchObject({ title: CATALOGUE[0]?.title, orderIndex: 0 });
    const [stored] = await database.db
      .select()
      .from(templates)
      .where(eq(templates.id, loop?.id ?? ''));
    expect(stored?.settings).toEqual({ questions: loop?.questions, defaults: loop?.defaults });
    const after = await versions();
    expect(after.filter((row, i) => row.xmin !== before[i]?.xmin).map((row) => row.id)).toEqual(
      [c1?.id, loop?.id].sort(),
    );
  });
});
