import { CONTENT_MESSAGES } from '@pulsecheck/shared/i18n/content';
import type { Language } from '@pulsecheck/shared/i18n/languages';
import type { LoopDetail, LoopInsights, LoopResults, RoundToAnswer } from '@pulsecheck/shared/loops/contract';
import type { LaunchLoopInput } from '@pulsecheck/shared/loops/schemas';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEntries } from '../../db/schema/audit';
import { user } from '../../db/schema/auth';
import { useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { addPeople, editable, launchLoop, loopBody, roundMail } from '../../test/loops';
import { english, json, type ErrorJson } from '../../test/requests';
import { unique } from '../../test/unique';

/** Loop questions in several languages (issue 34, decision 0027 'Content in several languages'). */

const ctx = useTestContext();
const admin = useAdmin(ctx, { companyName: 'Polyglot Co' });

/** An admin's own question (not the catalogue's), with a German translation. */
const focus = () => ({
  kind: 'scale' as const,
  text: `How focused were you this week? ${unique('q')}`,
  lowLabel: 'Scattered',
  highLabel: 'Deep focus',
  translations: {
    de: {
      text: 'Wie konzentriert waren Sie diese Woche?',
      lowLabel: 'Zerstreut',
      highLabel: 'Voll bei der Sache',
    },
  },
});

const inLanguage = (path: string, language: string, jar?: { header(): Record<string, string> }) =>
  ctx.request('GET', path, { headers: { ...(jar?.header() ?? {}), 'accept-language': language } });

const detail = async (loopId: string) =>
  (await json<{ loop: LoopDetail }>(await ctx.call(admin.jar, 'GET', `/api/loops/${loopId}`))).loop;

async function setLanguage(userId: string, language: Language) {
  await ctx.deps.db.update(user).set({ language }).where(eq(user.id, userId));
}

const launchBody = (overrides: Partial<LaunchLoopInput> = {}) =>
  loopBody(admin.workspaceId, {
    language: 'en',
    questions: [
      focus(),
      {
        kind: 'text',
        text: `Anything else? ${unique('t')}`,
        translations: { de: { text: 'Sonst noch etwas?' } },
      },
    ],
    ...overrides,
  });

describe('a loop question in several languages', () => {
  it("is stored with its translations and the loop's language, and each reader sees theirs, or the loop's with shownIn", async () => {
    const [german, french] = await addPeople(ctx, admin.workspaceId, 2);
    await setLanguage(german!.userId, 'de');
    await setLanguage(french!.userId, 'fr');
    const body = launchBody();
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId, body);

    // The editor gets the wording as written and its translations as written.
    const loop = await detail(launched.id);
    expect(loop.language).toBe('en');
    expect(loop.questions[0]).toMatchObject({
      text: body.questions[0]!.text,
      lowLabel: 'Scattered',
      translations: { de: focus().translations.de },
    });

    // The answer page from the e-mail: a German reader reads German, a French one the loop's English, said so.
    const germanMail = (await roundMail(ctx, german!.email, '')).text;
    const token = /\/loop-answer\/([\w-]+)/.exec(germanMail)![1]!;
    const de = await json<RoundToAnswer>(await inLanguage(`/api/loop-answer/${token}`, 'de'));
    expect(de.questions[0]).toMatchObject({
      text: 'Wie konzentriert waren Sie diese Woche?',
      lowLabel: 'Zerstreut',
      highLabel: 'Voll bei der Sache',
      shownIn: null,
    });
    expect(de.questions[1]).toMatchObject({ text: 'Sonst noch etwas?', shownIn: null });
    const fr = await json<RoundToAnswer>(await inLanguage(`/api/loop-answer/${token}`, 'fr'));
    expect(fr.questions[0]).toMatchObject({
      text: body.questions[0]!.text,
      lowLabel: 'Scattered',
      shownIn: 'en',
    });
    const en = await json<RoundToAnswer>(await inLanguage(`/api/loop-answer/${token}`, 'en'));
    expect(en.questions[0]).toMatchObject({ text: body.questions[0]!.text, shownIn: null });

    // The e-mails: the one-click question in each recipient's language when it has it.
    expect(germanMail).toContain('Wie konzentriert waren Sie diese Woche?');
    const frenchMail = (await roundMail(ctx, french!.email, '')).text;
    expect(frenchMail).toContain(body.questions[0]!.text);
    expect(frenchMail).not.toContain('Wie konzentriert');
    expect(frenchMail).toContain('En anglais, la langue de la boucle');
    expect(germanMail).not.toContain('der Sprache des Loops');

    // Readers: Loop Results and Insights pick the same way.
    const results = await json<LoopResults>(
      await inLanguage(`/api/loops/${launched.id}/results`, 'de', admin.jar),
    );
    expect(results.round?.questions[0]).toMatchObject({
      text: 'Wie konzentriert waren Sie diese Woche?',
      shownIn: null,
    });
    const resultsFr = await json<LoopResults>(
      await inLanguage(`/api/loops/${launched.id}/results`, 'fr', admin.jar),
    );
    expect(resultsFr.round?.questions[0]).toMatchObject({ text: body.questions[0]!.text, shownIn: 'en' });
    const insights = await json<LoopInsights>(
      await inLanguage(`/api/loops/${launched.id}/insights`, 'de', admin.jar),
    );
    expect(insights.lines[0]).toMatchObject({
      text: 'Wie konzentriert waren Sie diese Woche?',
      shownIn: null,
    });
  });

  it("takes the admin's language when the launch names none", async () => {
    const { language: _language, ...body } = launchBody();
    const response = await ctx.request('POST', '/api/loops', {
      body,
      headers: { ...admin.jar.header(), 'accept-language': 'fr' },
    });
    expect(response.status).toBe(201);
    const { id } = await json<{ id: string }>(response);
    expect((await detail(id)).language).toBe('fr');
  });

  it('checks each translation as the original is; an empty one is none', async () => {
    const long = launchBody({
      questions: [
        { ...focus(), translations: { de: { text: 'x'.repeat(201), lowLabel: 'a', highLabel: 'b' } } },
      ],
    });
    const tooLong = await ctx.call(admin.jar, 'POST', '/api/loops', long);
    expect(tooLong.status).toBe(400);
    expect((await json<ErrorJson>(tooLong)).error.fields).toMatchObject({
      'questions.0.translations.de.text': english('loops.questionTooLong'),
    });

    const noLabels = await ctx.call(
      admin.jar,
      'POST',
      '/api/loops',
      launchBody({
        questions: [
          { ...focus(), translations: { fr: { text: 'Concentré ?', lowLabel: '', highLabel: '' } } },
        ],
      }),
    );
    expect(noLabels.status).toBe(400);
    expect(Object.keys((await json<ErrorJson>(noLabels)).error.fields ?? {})).toEqual(
      expect.arrayContaining([
        'questions.0.translations.fr.lowLabel',
        'questions.0.translations.fr.highLabel',
      ]),
    );

    const sameLanguage = await ctx.call(admin.jar, 'POST', '/api/loops', launchBody({ language: 'de' }));
    expect(sameLanguage.status).toBe(400);
    expect((await json<ErrorJson>(sameLanguage)).error.fields).toMatchObject({
      'questions.0.translations.de': english(CONTENT_MESSAGES.translationSameLanguage),
    });

    const otherLanguage = await ctx.call(
      admin.jar,
      'POST',
      '/api/loops',
      launchBody({
        questions: [
          { ...focus(), translations: { xx: { text: 'Hi', lowLabel: 'a', highLabel: 'b' } } } as never,
        ],
      }),
    );
    expect(otherLanguage.status).toBe(400);

    const empty = launchBody({
      questions: [{ ...focus(), translations: { de: { text: ' ', lowLabel: '', highLabel: '' } } }],
    });
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId, empty);
    expect((await detail(launched.id)).questions[0]?.translations).toEqual({});
  });

  it('keeps a question (and its trend line) when only its translations change', async () => {
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId, launchBody());
    const before = await detail(launched.id);
    const edited = editable(before);
    const questions = before.questions.map((question, index) => ({
      ...edited.questions[index]!,
      translations:
        index === 0
          ? { fr: { text: 'Étiez-vous concentré ?', lowLabel: 'Dispersé', highLabel: 'Très' } }
          : {},
    }));
    const response = await ctx.call(admin.jar, 'PUT', `/api/loops/${launched.id}`, {
      ...edited,
      language: 'en',
      questions,
    });
    expect(response.status).toBe(200);
    const after = await detail(launched.id);
    expect(after.questions.map((q) => q.id)).toEqual(before.questions.map((q) => q.id));
    expect(after.questions[0]?.translations).toEqual({
      fr: { text: 'Étiez-vous concentré ?', lowLabel: 'Dispersé', highLabel: 'Très' },
    });
    expect(after.questions[1]?.translations).toEqual({});
    // The audit log says the translations changed (as counts), not the questions.
    const [audited] = await ctx.deps.db
      .select({ changes: auditEntries.changes })
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'loop.changed'), eq(auditEntries.targetId, launched.id)));
    expect(JSON.parse(audited!.changes!)).toEqual({ translations: { before: 2, after: 1 } });
    // The open round asks its questions as they are: the French reader now reads French, the German the original.
    const [round] = [after.currentRound!];
    const answer = await json<RoundToAnswer>(
      await inLanguage(`/api/loop-rounds/${round.id}/answer`, 'fr', admin.jar),
    );
    expect(answer.questions[0]).toMatchObject({ text: 'Étiez-vous concentré ?', shownIn: null });
    const german = await json<RoundToAnswer>(
      await inLanguage(`/api/loop-rounds/${round.id}/answer`, 'de', admin.jar),
    );
    expect(german.questions[0]).toMatchObject({ text: before.questions[0]!.text, shownIn: 'en' });
  });

  it('a loop template keeps its language and translations', async () => {
    const body = launchBody({ language: 'de' });
    const template = {
      title: `Mehrsprachig ${unique('t')}`,
      language: 'fr' as const,
      description: '',
      questions: body.questions,
      defaults: {
        cadence: 'weekly' as const,
        weekday: 'monday' as const,
        time: '09:00',
        roundDays: 3,
        anonymous: true,
        minResponses: 3,
        reminder: true,
      },
    };
    const saved = await ctx.call(admin.jar, 'POST', '/api/templates', {
      workspaceId: admin.workspaceId,
      template,
    });
    expect(saved.status).toBe(201);
    const { id } = await json<{ id: string }>(saved);
    const read = await json<{
      template: { loop: { language?: string; questions: { translations?: unknown }[] } };
    }>(await ctx.call(admin.jar, 'GET', `/api/templates/${id}`));
    expect(read.template.loop.language).toBe('fr');
    expect(read.template.loop.questions[0]?.translations).toEqual({ de: focus().translations.de });
  });
});
