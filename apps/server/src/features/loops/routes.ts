import { z } from '@hono/zod-openapi';
import { okSchema } from '@pulsecheck/shared/auth/schemas';
import {
  completionStatusSchema,
  continueAnswerBodySchema,
  launchLoopResponseSchema,
  loopDetailResponseSchema,
  loopInsightsSchema,
  loopResultsQuerySchema,
  loopResultsSchema,
  myLoopRoundsSchema,
  quickAnswerBodySchema,
  quickAnswerResponseSchema,
  remindResponseSchema,
  roundResponseSchema,
  roundToAnswerSchema,
} from '@pulsecheck/shared/loops/contract';
import { answersBodySchema, launchLoopSchema, loopDefinitionSchema } from '@pulsecheck/shared/loops/schemas';
import { auditBy } from '../../audit/record';
import { requireUser } from '../../auth/session';
import { downloadLanguage } from '../../lib/download';
import { routes } from '../../lib/openapi';
import { languageOfRequest } from '../../mail/language';
import * as answers from './answers';
import * as reports from './reports';
import * as service from './service';

/** Loops (docs/api/loops.md): managing them, their rounds and reports, and answering them. */
export const loopRoutes = routes('loops')
  .call(
    'post /loops',
    "'Launch Loop' (idempotent per launchKey)",
    {
      scope: 'loops:write',
      body: launchLoopSchema,
      ok: [201, launchLoopResponseSchema, 'Launched (or the earlier launch with this key)'],
      errors: [404],
    },
    service.launchLoop,
  )
  .call(
    'get /loops/{loopId}',
    'A loop for Configure Loop and its screens (workspace admins and members)',
    { scope: 'loops:read', ok: [200, loopDetailResponseSchema, 'The loop'] },
    async (deps, input, _user, locale) => ({ loop: await service.getLoop(deps, input, locale) }),
  )
  .call(
    'put /loops/{loopId}',
    'Edit a loop (admins and its creator); protective settings only get stricter once answered',
    {
      scope: 'loops:write',
      body: loopDefinitionSchema,
      ok: [200, loopDetailResponseSchema, 'Saved'],
      errors: [403, 409],
    },
    (deps, input, _user, locale) => service.editLoop(deps, input, locale),
  )
  .call(
    'post /loops/{loopId}/pause',
    'Pause a loop: no round opens, the open round takes no answers',
    { scope: 'loops:write', ok: [200, loopDetailResponseSchema, 'Paused'], errors: [403, 409] },
    (deps, input, _user, locale) => service.changeLoopStatus(deps, { ...input, change: 'pause' }, locale),
  )
  .call(
    'post /loops/{loopId}/resume',
    'Resume a paused loop: the next round by the schedule from now',
    { scope: 'loops:write', ok: [200, loopDetailResponseSchema, 'Resumed'], errors: [403, 409] },
    (deps, input, _user, locale) => service.changeLoopStatus(deps, { ...input, change: 'resume' }, locale),
  )
  .call(
    'post /loops/{loopId}/stop',
    'Stop a loop for good: its open round closes',
    { scope: 'loops:write', ok: [200, loopDetailResponseSchema, 'Stopped'], errors: [403] },
    (deps, input, _user, locale) => service.changeLoopStatus(deps, { ...input, change: 'stop' }, locale),
  )
  .call(
    'post /loops/{loopId}/rounds',
    "'Start Next Round Now': closes the open round and opens the next",
    { scope: 'loops:write', ok: [201, roundResponseSchema, 'Opened'], errors: [403, 409] },
    service.startNextRoundNow,
  )
  .call(
    'post /loops/{loopId}/rounds/{roundId}/close',
    "'Close Round Now'",
    { scope: 'loops:write', ok: [200, roundResponseSchema, 'Closed'], errors: [403] },
    service.closeRoundNow,
  )
  .call(
    'post /loops/{loopId}/rounds/{roundId}/remind',
    "'Send Reminder' to those who have not answered",
    { scope: 'loops:write', ok: [200, remindResponseSchema, 'Reminded'], errors: [403, 409] },
    service.sendReminder,
  )
  .call(
    'get /loops/{loopId}/completion-status',
    'The current round: response rate, who has and has not answered (names only), time left; the history',
    { scope: 'loops:read', ok: [200, completionStatusSchema, 'Completion status'] },
    (deps, input, _user, locale) => reports.completionStatus(deps, input, locale),
  )
  .call(
    'get /loops/{loopId}/results',
    "A round's results (default: the newest round)",
    { scope: 'loops:read', query: loopResultsQuerySchema, ok: [200, loopResultsSchema, 'Results'] },
    (deps, input, _user, locale) => reports.loopResults(deps, input, locale),
  )
  .handle(
    'get /loops/{loopId}/results/csv',
    "A released round's results as CSV",
    {
      scope: 'loops:read',
      query: loopResultsQuerySchema,
      ok: [200, z.string(), 'CSV', 'text/csv'],
      errors: [401, 404, 409],
    },
    async (c) => {
      const user = await requireUser(c);
      const deps = c.get('deps');
      const file = await reports.loopResultsCsv(deps, {
        userId: user.id,
        by: auditBy(c, user),
        loopId: c.req.valid('param').loopId,
        roundId: c.req.valid('query').roundId,
        locale: await downloadLanguage(c, user.id),
      });
      return c.body(file.body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${file.fileName}"`,
      });
    },
  )
  .call(
    'get /loops/{loopId}/insights',
    "Each question's trend across rounds, eNPS and participation, with real change or normal variation",
    { scope: 'insights:read', ok: [200, loopInsightsSchema, 'Insights'] },
    (deps, input, _user, locale) => reports.loopInsights(deps, input, locale),
  )
  .handle(
    'get /loop-answer/{token}',
    'The round behind a personal answer link (reads only: never records an answer)',
    { public: true, ok: [200, roundToAnswerSchema, 'The round to answer'] },
    async (c) => {
      const { db, config } = c.get('deps');
      const identity = await answers.identityByToken(db, c.req.valid('param').token);
      return c.json(
        await answers.roundToAnswer(db, identity, languageOfRequest(c.req.raw.headers, config)),
        200,
      );
    },
  )
  .handle(
    'post /loop-answer/{token}',
    "Answer a round with the personal link's token",
    { public: true, body: answersBodySchema, ok: [201, okSchema, 'Answered'], errors: [409] },
    async (c) => {
      const deps = c.get('deps');
      const identity = await answers.identityByToken(deps.db, c.req.valid('param').token);
      await answers.submitAnswers(deps, identity, c.req.valid('json'));
      return c.json({ ok: true as const }, 201);
    },
  )
  .handle(
    'post /loop-answer/{token}/quick',
    "The one-click answer of the round's first question, from the e-mail",
    {
      public: true,
      body: quickAnswerBodySchema,
      ok: [201, quickAnswerResponseSchema, 'Answered'],
      errors: [409],
    },
    async (c) => {
      const deps = c.get('deps');
      const identity = await answers.identityByToken(deps.db, c.req.valid('param').token);
      return c.json(await answers.quickAnswer(deps, identity, c.req.valid('json').value), 201);
    },
  )
  .handle(
    'post /loop-responses/continue',
    'The rest of the form after a one-click answer, by its continuation secret',
    { public: true, body: continueAnswerBodySchema, ok: [200, okSchema, 'Saved'], errors: [404, 409] },
    async (c) => {
      await answers.continueAnswer(c.get('deps'), c.req.valid('json'));
      return c.json({ ok: true as const }, 200);
    },
  )
  .call(
    'get /loop-rounds/{roundId}/answer',
    'The round for a signed-in member of its audience',
    { ok: [200, roundToAnswerSchema, 'The round to answer'] },
    async ({ db }, { roundId, userId }, _user, locale) =>
      answers.roundToAnswer(db, await answers.identityForUser(db, roundId, userId), locale),
  )
  .call(
    'post /loop-rounds/{roundId}/answer',
    'Answer a round as a signed-in member of its audience',
    { body: answersBodySchema, ok: [201, okSchema, 'Answered'], errors: [409] },
    async (deps, { roundId, userId, by: _by, ...body }) =>
      answers.submitAnswers(deps, await answers.identityForUser(deps.db, roundId, userId), body),
  )
  .call(
    'get /my/loop-rounds',
    "The signed-in member's open rounds",
    { ok: [200, myLoopRoundsSchema, 'Open rounds'] },
    async ({ db }, { userId }) => ({ rounds: await reports.myLoopRounds(db, userId) }),
  ).router;
