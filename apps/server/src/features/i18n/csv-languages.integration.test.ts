import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthCheckComponents } from '../../db/schema/health-checks';
import { translatorFor } from '../../lib/i18n';
import { createAdmin } from '../../test/accounts';
import { createTestContext, type TestContext } from '../../test/harness';
import { addParticipants, createCheck, rateAll, type CheckFixture } from '../../test/health-checks';

/**
 * Issue 34: every CSV in the downloader's language (decision 0027): the header and the file's own words in it,
 * the catalogue's components and categories too; what people wrote as written; English exactly as before.
 */

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof createAdmin>>;
let check: CheckFixture;
const de = translatorFor('de');
const en = translatorFor('en');

const ENGLISH_HEADER =
  "Rank,Component,Category,Healthy,Needs Improvement,Fire Warning,Don't Know,Total Ratings,Dots,Trend,Action Items,Actions since last check";

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await createAdmin(ctx);
  // Signing up stored English as the admin's choice: without one, the browser's language counts.
  expect((await ctx.call(admin.jar, 'PUT', '/api/account/language', { language: null })).status).toBe(200);
  check = await createCheck(ctx, admin, { phase: 'summarize', keys: ['c1', 'c2'], title: 'Quarterly' });
  // The second component is the team's own: its title stays as written in every language.
  await ctx.deps.db
    .update(healthCheckComponents)
    .set({ title: 'Unsere Retro, our way' })
    .where(and(eq(healthCheckComponents.templateId, check.templateId), eq(healthCheckComponents.key, 'c2')));
  await rateAll(ctx, check, await addParticipants(ctx, check, 3), (_, j) =>
    j === 0 ? 'fire-warning' : 'healthy',
  );
  const created = await ctx.call(
    admin.jar,
    'POST',
    `/api/health-checks/${check.healthCheckId}/action-items`,
    {
      ownerId: admin.userId,
      status: 'in-progress',
      dueDate: '2099-01-31',
      componentId: check.componentIds[0],
      description: 'Agree on a meeting-free Friday',
    },
  );
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await ctx.close();
});

/** The results CSV's lines, downloaded with these headers. */
const download = async (headers: Record<string, string> = {}) => {
  const response = await ctx.request('GET', `/api/health-checks/${check.healthCheckId}/results/csv`, {
    headers: { ...admin.jar.header(), ...headers },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/csv');
  return (await response.text()).trim().split('\r\n');
};

describe('the results CSV in the downloader’s language', () => {
  it('writes German with Accept-Language: de: header, catalogue titles and words; own texts as written', async () => {
    const lines = await download({ 'Accept-Language': 'de-DE,de;q=0.9' });
    expect(lines[0]).toBe(
      'Rang,Bereich,Kategorie,Gesund,Verbesserungsbedarf,Alarmsignal,Weiß nicht,Bewertungen gesamt,Punkte,Trend,Maßnahmen,Maßnahmen seit dem letzten Health Check',
    );
    expect(lines).toHaveLength(3);
    const [first, second] = [lines[1]!, lines[2]!];
    // The fire warnings first: the catalogue's component and category in German, numbers as numbers.
    expect(first).toContain(
      `1,${de.t('catalogue.c1.title')},${de.t('catalogue.category.communicate')},0,0,3,0,3,`,
    );
    expect(first).not.toContain(en.t('catalogue.c1.title'));
    // The action item: its description and owner as written, its status and due date in German.
    expect(first).toContain(
      `Agree on a meeting-free Friday (in Arbeit, ${admin.fullName}, fällig am 2099-01-31)`,
    );
    // The team's own component as written.
    expect(second).toMatch(/^2,"Unsere Retro, our way",[^,]+,3,0,0,0,3,/);
  });

  it('writes English exactly as before, and the person’s stored choice wins over the browser', async () => {
    const english = await download();
    expect(english[0]).toBe(ENGLISH_HEADER);
    expect(english[1]).toContain(
      `1,${en.t('catalogue.c1.title')},${en.t('catalogue.category.communicate')},0,0,3,0,3,`,
    );
    expect(english[1]).toContain(
      `Agree on a meeting-free Friday (in-progress, ${admin.fullName}, due 2099-01-31)`,
    );
    expect(english[2]).toMatch(/^2,"Unsere Retro, our way",/);
    expect((await download({ 'Accept-Language': 'fr' }))[0]).toMatch(
      /^Rang,Domaine,Catégorie,En bonne santé,/,
    );

    expect((await ctx.call(admin.jar, 'PUT', '/api/account/language', { language: 'en' })).status).toBe(200);
    expect(await download({ 'Accept-Language': 'de' })).toEqual(english);
  });
});
