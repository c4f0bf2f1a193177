import { DEFAULT_NOTIFICATION_PREFERENCES } from '@pulsecheck/shared/account/schemas';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { user } from '../../db/schema/auth';
import { mailOutbox, notifications } from '../../db/schema/messaging';
import { organizations, workspaces } from '../../db/schema/organizations';
import { translatorFor } from '../../lib/i18n';
import { complete } from '../../mail/outbox';
import { useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { addPeople, launchLoop, makeDue, runLoopJobs, scaleQuestion } from '../../test/loops';
import { notify } from '../notifications/service';
import { messageWith } from '@pulsecheck/shared/i18n/message';

/**
 * Issue 34, decision 0027: a loop round's e-mails and bell notices in each member's language (their own choice,
 * else their organisation's default), said by the query that writes them; the catalogue's questions in the
 * reader's language, the admin's own as written.
 */

const ctx = useTestContext();
const admin = useAdmin(ctx, { companyName: 'Languages Co' });

const de = translatorFor('de');
const es = translatorFor('es');
const fr = translatorFor('fr');

/** The catalogue's first Weekly Pulse question, as the catalogue stores it (English). */
const catalogueQuestion = {
  kind: 'scale' as const,
  text: 'How was your week overall?',
  lowLabel: 'Rough',
  highLabel: 'Great',
};

/** The newest round e-mail to `email`, with its body. */
async function roundMailTo(email: string) {
  const [row] = await ctx.deps.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email.toLowerCase()), eq(mailOutbox.kind, 'loop-round')))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  if (!row) throw new Error(`no round e-mail to ${email}`);
  const [mail] = await complete(ctx.deps.db, [row]);
  return mail!;
}

/** The newest bell notice of a person. */
async function bellOf(userId: string) {
  const [row] = await ctx.deps.db
    .select({ message: notifications.message })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, 'loop-round')))
    .orderBy(desc(notifications.createdAt))
    .limit(1);
  return row?.message;
}

describe("a loop round's e-mails in each member's language", () => {
  it('German to the German member, Spanish to the Spanish one, the organisation default to a person without a choice', async () => {
    const [german, spanish, undecided] = await addPeople(ctx, admin.workspaceId, 3);
    await ctx.deps.db.update(user).set({ language: 'de' }).where(eq(user.id, german!.userId));
    await ctx.deps.db.update(user).set({ language: 'es' }).where(eq(user.id, spanish!.userId));
    const [workspace] = await ctx.deps.db
      .select({ organizationId: workspaces.organizationId })
      .from(workspaces)
      .where(eq(workspaces.id, admin.workspaceId));
    await ctx.deps.db
      .update(organizations)
      .set({ defaultLanguage: 'fr' })
      .where(eq(organizations.id, workspace!.organizationId));

    // The first question the catalogue's: translated for each reader.
    const catalogueLoop = await launchLoop(ctx, admin.jar, admin.workspaceId, {
      title: 'Team pulse',
      description: 'How is the team doing?',
      questions: [catalogueQuestion, { kind: 'text', text: 'Anything else?' }],
      anonymous: true,
    });
    expect(catalogueLoop.startedNow).toBe(true);

    const toGerman = await roundMailTo(german!.email);
    expect(toGerman.subject).toBe(de.t('mail.loopRound.subject', { title: 'Team pulse', number: 1 }));
    expect(toGerman.subject).toBe('Team pulse: Runde 1 ist geöffnet');
    for (const body of [toGerman.text, toGerman.html]) {
      expect(body).toContain('Eine neue Runde ist geöffnet und dauert etwa eine Minute.');
      expect(body).toContain(de.t('mail.loopRound.anonymous'));
      expect(body).toContain('Jetzt antworten');
      expect(body).toContain(de.t('loopCatalogue.wp1.text'));
      expect(body).not.toContain('How was your week overall?');
      expect(body).not.toContain('A new round is open');
    }
    expect(toGerman.text).toContain(`1 = ${de.t('loopCatalogue.wp1.lowLabel')}`);
    expect(toGerman.text).toContain(de.t('mail.loopRound.footer'));
    expect(toGerman.html).toContain('<html lang="de">');
    // What the admin wrote stays as written.
    expect(toGerman.text).toContain('How is the team doing?');

    const toSpanish = await roundMailTo(spanish!.email);
    expect(toSpanish.subject).toBe('Team pulse: la ronda 1 está abierta');
    for (const body of [toSpanish.text, toSpanish.html]) {
      expect(body).toContain(es.t('mail.loopRound.body'));
      expect(body).toContain(es.t('loopCatalogue.wp1.text'));
      expect(body).toContain('Responder ahora');
    }
    expect(toSpanish.html).toContain('<html lang="es">');

    // No choice of their own: the organisation's default.
    const toUndecided = await roundMailTo(undecided!.email);
    expect(toUndecided.subject).toBe(fr.t('mail.loopRound.subject', { title: 'Team pulse', number: 1 }));
    expect(toUndecided.text).toContain(fr.t('mail.loopRound.body'));
    expect(toUndecided.text).toContain(fr.t('loopCatalogue.wp1.text'));

    // Each one's personal link still works in every language's body.
    for (const mail of [toGerman, toSpanish, toUndecided]) expect(mail.text).toMatch(/\/loop-answer\/[\w-]+/);
    expect(
      new Set([toGerman.text, toSpanish.text].map((t) => /\/loop-answer\/([\w-]+)/.exec(t)?.[1])).size,
    ).toBe(2);

    // The bell notices too.
    expect(await bellOf(german!.userId)).toBe(
      de.t('mail.loopRound.notice', { title: 'Team pulse', number: 1 }),
    );
    expect(await bellOf(spanish!.userId)).toBe(
      es.t('mail.loopRound.notice', { title: 'Team pulse', number: 1 }),
    );
    expect(await bellOf(undecided!.userId)).toBe(
      fr.t('mail.loopRound.notice', { title: 'Team pulse', number: 1 }),
    );

    // The admin's own first question: as written, in every language.
    await launchLoop(ctx, admin.jar, admin.workspaceId, {
      title: 'Sprint pulse',
      questions: [scaleQuestion('How did the sprint feel?'), { kind: 'text', text: 'Anything else?' }],
      anonymous: false,
    });
    const ownGerman = await roundMailTo(german!.email);
    expect(ownGerman.subject).toBe('Sprint pulse: Runde 1 ist geöffnet');
    expect(ownGerman.text).toContain('How did the sprint feel?');
    expect(ownGerman.text).toContain(de.t('mail.loopRound.named'));
    const ownSpanish = await roundMailTo(spanish!.email);
    expect(ownSpanish.subject).toBe('Sprint pulse: la ronda 1 está abierta');
    expect(ownSpanish.text).toContain('How did the sprint feel?');
    expect(ownSpanish.text).toContain(es.t('mail.loopRound.named'));

    // One shared body per language read, not one per member.
    const bodies = await ctx.deps.db
      .select({ bodyId: mailOutbox.bodyId })
      .from(mailOutbox)
      .where(
        inArray(
          mailOutbox.to,
          [german!.email, spanish!.email, undecided!.email].map((e) => e.toLowerCase()),
        ),
      );
    expect(new Set(bodies.map((row) => row.bodyId)).size).toBe(6);
  });

  it("reminds each member in their own language, and says a notice given as a key in each recipient's", async () => {
    const [german, spanish] = await addPeople(ctx, admin.workspaceId, 2);
    await ctx.deps.db.update(user).set({ language: 'de' }).where(eq(user.id, german!.userId));
    await ctx.deps.db.update(user).set({ language: 'es' }).where(eq(user.id, spanish!.userId));
    // Survey reminders in the bell too (off by default).
    await ctx.deps.db
      .update(user)
      .set({
        notificationPreferences: {
          ...DEFAULT_NOTIFICATION_PREFERENCES,
          pushNotifications: { ...DEFAULT_NOTIFICATION_PREFERENCES.pushNotifications, surveyReminders: true },
        },
      })
      .where(inArray(user.id, [german!.userId, spanish!.userId]));
    await launchLoop(ctx, admin.jar, admin.workspaceId, { title: 'Reminded pulse', anonymous: false });
    // The round's reminder job (LOOP_JOBS.remind in features/loops), made due now.
    await makeDue(ctx, 'loop-round-remind');
    await runLoopJobs(ctx);

    const reminderTo = async (email: string) => {
      const [row] = await ctx.deps.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.to, email.toLowerCase()), eq(mailOutbox.kind, 'loop-reminder')))
        .orderBy(desc(mailOutbox.createdAt))
        .limit(1);
      if (!row) throw new Error(`no reminder to ${email}`);
      return (await complete(ctx.deps.db, [row]))[0]!;
    };
    const toGerman = await reminderTo(german!.email);
    expect(toGerman.subject).toBe('Erinnerung: Reminded pulse schließt bald');
    expect(toGerman.text).toContain(de.t('mail.loopReminder.body', { name: german!.name }));
    expect(toGerman.text).toContain(de.t('mail.loopRound.named'));
    expect(toGerman.text).toMatch(/Abmelden: \S+\/unsubscribe\?token=/);
    const toSpanish = await reminderTo(spanish!.email);
    expect(toSpanish.subject).toBe('Recordatorio: Reminded pulse se cierra pronto');
    expect(toSpanish.text).toContain(es.t('mail.loopReminder.body', { name: spanish!.name }));
    const reminderBell = async (userId: string) =>
      (
        await ctx.deps.db
          .select({ message: notifications.message })
          .from(notifications)
          .where(and(eq(notifications.userId, userId), eq(notifications.type, 'survey-reminder')))
      ).map((row) => row.message);
    expect(await reminderBell(german!.userId)).toEqual([
      de.t('mail.loopReminder.notice', { title: 'Reminded pulse' }),
    ]);
    expect(await reminderBell(spanish!.userId)).toEqual([
      es.t('mail.loopReminder.notice', { title: 'Reminded pulse' }),
    ]);

    // notify() with a message that is a key and its values: each recipient's bell in their language.
    await notify(ctx.deps, {
      userIds: [german!.userId, spanish!.userId],
      type: 'team-update',
      message: messageWith('mail.notice.memberJoined', { name: 'Ana', workspace: 'Languages Co' }),
      workspaceId: admin.workspaceId,
    });
    const teamBell = async (userId: string) =>
      (
        await ctx.deps.db
          .select({ message: notifications.message })
          .from(notifications)
          .where(and(eq(notifications.userId, userId), eq(notifications.type, 'team-update')))
      ).map((row) => row.message);
    expect(await teamBell(german!.userId)).toEqual(['Ana ist Languages Co beigetreten']);
    expect(await teamBell(spanish!.userId)).toEqual(['Ana se unió a Languages Co']);
  });
});
