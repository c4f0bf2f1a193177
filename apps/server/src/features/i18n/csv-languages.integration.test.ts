import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthCheckComponents } from '../../db/schema/health-checks';
import { translatorFor } from '../../lib/i18n';
import { createAdmin } from '../../test/accounts';
import { createTestContext, type TestContext } from '../../test/harness';
import { addParticipants, createCheck, rateAll, type CheckFixture } from '../../test/health-checks';
import { addPeople, answerByLink, answerToken, launchLoop } from '../../test/loops';
import { json } from '../../test/requests';
import type { LoopDetail } from '@pulsecheck/shared/loops/contract';
import type { WorkspacesResponse } from '@pulsecheck/shared/workspaces/schemas';

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

describe('Loop Results’ CSV in the downloader’s language', () => {
  it('writes the header, the kinds and the catalogue’s questions in German; answers as written', async () => {
    expect((await ctx.call(admin.jar, 'PUT', '/api/account/language', { language: null })).status).toBe(200);
    const people = await addPeople(ctx, admin.workspaceId, 3);
    const loop = await launchLoop(ctx, admin.jar, admin.workspaceId, {
      title: 'Team pulse',
      questions: [
        { kind: 'scale', text: en.t('loopCatalogue.wp1.text'), lowLabel: 'Rough', highLabel: 'Great' },
        { kind: 'text', text: 'Was noch?' },
      ],
      audience: { kind: 'members', memberIds: people.map((p) => p.memberId) },
    });
    for (const [index, person] of people.entries())
      expect(
        (
          await answerByLink(ctx, await answerToken(ctx, person.email), {
            scale: index + 2,
            text: `Answer ${index + 1}, as written`,
          })
        ).status,
      ).toBe(201);
    const { loop: detail } = await json<{ loop: LoopDetail }>(
      await ctx.call(admin.jar, 'GET', `/api/loops/${loop.id}`),
    );
    const roundId = detail.currentRound!.id;
    expect((await ctx.call(admin.jar, 'POST', `/api/loops/${loop.id}/rounds/${roundId}/close`)).status).toBe(
      200,
    );

    const csv = async (headers: Record<string, string>) => {
      const response = await ctx.request('GET', `/api/loops/${loop.id}/results/csv?roundId=${roundId}`, {
        headers: { ...admin.jar.header(), ...headers },
      });
      expect(response.status).toBe(200);
      return response.text();
    };
    const german = await csv({ 'Accept-Language': 'de' });
    expect(german.split('\r\n')[0]).toBe(
      'Loop,Runde,Frage,Art,Wert,Anzahl,Anteil (%),Mittelwert,eNPS,Antwort,Verfasst von',
    );
    expect(german).toContain(`Team pulse,1,${de.t('loopCatalogue.wp1.text')},Skala,2,1,`);
    expect(german).toContain('Team pulse,1,Was noch?,Freitext,,,,,,"Answer 1, as written",\r\n');
    const english = await csv({});
    expect(english.split('\r\n')[0]).toBe(
      'Loop,Round,Question,Kind,Value,Count,Share (%),Mean,eNPS,Answer,Author',
    );
    expect(english).toContain(`Team pulse,1,${en.t('loopCatalogue.wp1.text')},scale,2,1,`);
    expect(english).toContain('Team pulse,1,Was noch?,text,,,,,,"Answer 1, as written",\r\n');
  });
});

describe('the insights CSV in the downloader’s language', () => {
  it('writes the header, the catalogue, the health and the Organisation row in German; names as written', async () => {
    expect((await ctx.call(admin.jar, 'PUT', '/api/account/language', { language: null })).status).toBe(200);
    const { workspaces } = await json<WorkspacesResponse>(
      await ctx.call(admin.jar, 'GET', '/api/workspaces'),
    );
    const workspace = workspaces.find((w) => w.id === admin.workspaceId)!;
    const completed = await createCheck(ctx, admin, {
      phase: 'summarize',
      keys: ['c1'],
      title: 'Spring check',
      completedAt: new Date(),
    });
    await rateAll(ctx, completed, await addParticipants(ctx, completed, 3), () => 'healthy');
    const path = `/api/organizations/${workspace.organizationId}/insights/csv?period=all&category=${encodeURIComponent(en.t('catalogue.category.communicate'))}`;
    const csv = async (headers: Record<string, string>) => {
      const response = await ctx.request('GET', path, { headers: { ...admin.jar.header(), ...headers } });
      expect(response.status).toBe(200);
      return response.text();
    };
    const german = await csv({ 'Accept-Language': 'de' });
    expect(german.split('\r\n')[0]).toBe(
      'Kategorie,Bereich,Team,Health Check,Abgeschlossen am,Antworten,Gesund,Verbesserungsbedarf,Alarmsignal,Weiß nicht,Zustand,Trend',
    );
    const c1 = `${de.t('catalogue.category.communicate')},${de.t('catalogue.c1.title')}`;
    expect(german).toContain(`${c1},${workspace.name},Spring check,`);
    expect(german).toContain(',3,3,0,0,0,Überwiegend gesund,');
    expect(german).toContain(
      `${c1},Organisation (1 Team),Gesamter Zeitraum,,,3,0,0,0,Überwiegend gesund,\r\n`,
    );

    const english = await csv({});
    expect(english.split('\r\n')[0]).toBe(
      "Category,Component,Team,Health check,Completed,Responses,Healthy,Needs Improvement,Fire Warning,Don't Know,Health,Trend",
    );
    const enC1 = `${en.t('catalogue.category.communicate')},${en.t('catalogue.c1.title')}`;
    expect(english).toContain(`${enC1},Organisation (1 team),All time,,,3,0,0,0,Mostly Healthy,\r\n`);
  });
});
