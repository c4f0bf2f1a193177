import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '@pulsecheck/shared/account/schemas';
import { DEFAULT_SETTINGS } from '@pulsecheck/shared/health-checks/schemas';
import { passkey } from '../db/schema/auth';
import { templates } from '../db/schema/health-checks';
import { notifications } from '../db/schema/messaging';
import { workspaces } from '../db/schema/organizations';
import { eq } from 'drizzle-orm';
import { can, type Action, type Actor as PolicyActor } from '../auth/policy';
import { createAdmin, invite, signedInParticipant, signedInUser } from '../test/accounts';
import { useTestContext, type TestContext } from '../test/harness';
import { launch, launchBody } from '../test/health-checks';
import { addPeople, editable, launchLoop, loopBody } from '../test/loops';
import { LOOP_CATALOGUE } from '@pulsecheck/shared/loops/catalogue';
import type { LoopDetail } from '@pulsecheck/shared/loops/contract';
import { CookieJar } from '../test/requests';

/**
 * Every API route × every kind of caller, with the expected outcome. Routes are enumerated from the OpenAPI
 * document, so a new route fails this test until it has an entry here.
 *
 * Callers, in this order (least to most privileged, so a successful destructive call comes last):
 *   anon (signed out), stranger (signed in, no workspace), otherAdmin (admin of another organisation),
 *   otherParticipant (participant of a check elsewhere), participant (of the check under test),
 *   member (access 'member' in the workspace), admin (of the workspace, creator of the check).
 * Expectations: 'A' gets past access control (any status but 401/403/404), 'D' is refused (401 for anon,
 * 403 or 404 for the others), 'P' public (anything but 5xx). Routes that a policy action guards take their
 * expectations from auth/policy.ts (`byPolicy`), so the routes and the policy cannot drift apart.
 */
const ACTORS = [
  'anon',
  'stranger',
  'otherAdmin',
  'otherParticipant',
  'participant',
  'member',
  'admin',
] as const;
type Actor = (typeof ACTORS)[number];

type World = {
  ctx: TestContext;
  jars: Record<Actor, CookieJar>;
  workspaceId: string;
  organizationId: string;
  checkId: string;
  templateId: string;
  adminId: string;
  memberUserId: string;
  joinAdmin: { jar: CookieJar; workspaceId: string };
  /** A loop of the workspace launched by the admin, its open round (sent to everyone of the workspace). */
  loop: LoopDetail;
};
/**
 * How each caller relates to the workspace and check under test, as the access policy sees them; the admin
 * created the check. A route guarded by a policy action expects exactly what `can` says (signed out: refused).
 */
const AS_THE_POLICY_SEES: Record<Exclude<Actor, 'anon'>, PolicyActor> = {
  stranger: { userId: 'stranger', access: null, organizationRole: null },
  otherAdmin: { userId: 'other-admin', access: null, organizationRole: 'owner' },
  otherParticipant: { userId: 'other-participant', access: null, organizationRole: 'member' },
  participant: {
    userId: 'participant',
    access: 'participant',
    participates: true,
    organizationRole: 'member',
  },
  member: { userId: 'member', access: 'member', organizationRole: 'member' },
  admin: { userId: 'creator', access: 'admin', organizationRole: 'owner' },
};
const byPolicy = (action: Action) =>
  ACTORS.map((actor) =>
    actor !== 'anon' && can(AS_THE_POLICY_SEES[actor], action, { createdBy: 'creator' }) ? 'A' : 'D',
  ).join('');

type Request = { path: string; body?: unknown; form?: FormData };
type Entry = { expect: string; request: (world: World) => Promise<Request> | Request };

const check = (world: World) => world.checkId;
const fresh = async (world: World) => (await launch(world.ctx, world.jars.admin, world.workspaceId)).id;
/** A check of a third organisation: joining it must not make the caller a member of the workspace under test. */
const elsewhere = async (world: World) =>
  (await launch(world.ctx, world.joinAdmin.jar, world.joinAdmin.workspaceId)).id;
const pendingInvite = async (world: World) =>
  (await invite(world.ctx, { jar: world.jars.admin, workspaceId: world.workspaceId })).memberId;
const freshMember = async (world: World) => {
  const person = await signedInUser(world.ctx, { workspaceId: world.workspaceId, access: 'member' });
  const members = (await (
    await world.ctx.call(world.jars.admin, 'GET', `/api/workspaces/${world.workspaceId}/members`)
  ).json()) as { members: { id: string; userId: string | null }[] };
  return members.members.find((m) => m.userId === person.userId)!.id;
};
const freshActionItem = async (world: World) => {
  const response = await world.ctx.call(
    world.jars.admin,
    'POST',
    `/api/health-checks/${world.checkId}/action-items`,
    { description: 'Fix onboarding', ownerId: world.adminId },
  );
  return ((await response.json()) as { id: string }).id;
};
const allRatingsMissing = { votes: {}, comments: {} };
const webhookBody = { url: 'https://hooks.example.com/pulsecheck', events: ['member.joined'] };
/** A webhook of the workspace under test, made by its admin. */
const freshWebhook = async (world: World) => {
  const response = await world.ctx.call(
    world.jars.admin,
    'POST',
    `/api/workspaces/${world.workspaceId}/webhooks`,
    webhookBody,
  );
  if (response.status !== 201) throw new Error(`webhook: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { webhook: { id: string } }).webhook.id;
};
const loopOf = (world: World) => world.loop.id;
const roundOf = (world: World) => world.loop.currentRound!.id;
/** A loop of its own for a route that changes or ends it. */
const freshLoop = async (world: World) =>
  readLoop(world, (await launchLoop(world.ctx, world.jars.admin, world.workspaceId)).id);
const readLoop = async (world: World, id: string) =>
  ((await (await world.ctx.call(world.jars.admin, 'GET', `/api/loops/${id}`)).json()) as { loop: LoopDetail })
    .loop;
const [catalogueLoop] = LOOP_CATALOGUE;
const loopTemplateBody = {
  title: catalogueLoop!.title,
  description: '',
  questions: catalogueLoop!.questions,
  defaults: catalogueLoop!.defaults,
};
const freshLoopTemplate = async (world: World) => {
  const response = await world.ctx.call(world.jars.admin, 'POST', '/api/templates', {
    workspaceId: world.workspaceId,
    template: loopTemplateBody,
  });
  return ((await response.json()) as { id: string }).id;
};
/** 'Save as template' from the catalogue with Configure's choices (launchBody's title, settings, components). */
const healthCheckTemplateBody = async (world: World) => {
  const { workspaceId, templateId, title, description, settings, enabledComponentIds } = await launchBody(
    world.ctx,
    world.workspaceId,
  );
  return { workspaceId, templateId, title, description, settings, enabledComponentIds };
};
const freshHealthCheckTemplate = async (world: World) => {
  const response = await world.ctx.call(
    world.jars.admin,
    'POST',
    '/api/templates/health-checks',
    await healthCheckTemplateBody(world),
  );
  return ((await response.json()) as { id: string }).id;
};
/** Valid answers to the world loop's round (its first two questions: a scale and an eNPS question). */
const roundAnswers = (world: World) => {
  const [scale, enps] = world.loop.questions;
  return { answers: { [scale!.id]: 4, [enps!.id]: 8 } };
};
const organizationOf = async (world: World) => {
  const [row] = await world.ctx.deps.db
    .select({ id: workspaces.organizationId })
    .from(workspaces)
    .where(eq(workspaces.id, world.workspaceId));
  return row!.id;
};

const apiTokenBody = { name: 'Script', scopes: ['results:read'], expiresInDays: 30 };
/** A token of the admin (personal) or of the admin's organisation, made through the API. */
const freshApiToken = async (world: World, owner: 'account' | 'organization') => {
  const response = await world.ctx.call(world.jars.admin, 'POST', `/api/${owner}/api-tokens`, apiTokenBody);
  return ((await response.json()) as { token: { id: string } }).token.id;
};

const ENTRIES: Record<string, Entry> = {
  'GET /api/health': { expect: 'PPPPPPP', request: () => ({ path: '/api/health' }) },
  'GET /api/ready': { expect: 'PPPPPPP', request: () => ({ path: '/api/ready' }) },
  'POST /api/signup': { expect: 'PPPPPPP', request: () => ({ path: '/api/signup', body: {} }) },
  'POST /api/signup/participant': {
    expect: 'PPPPPPP',
    request: () => ({ path: '/api/signup/participant', body: {} }),
  },
  'POST /api/login': {
    expect: 'PPPPPPP',
    request: () => ({ path: '/api/login', body: { email: 'x@example.com', password: 'nope' } }),
  },
  'POST /api/logout': { expect: 'PPPPPPP', request: () => ({ path: '/api/logout' }) },
  'POST /api/password/forgot': {
    expect: 'PPPPPPP',
    request: () => ({ path: '/api/password/forgot', body: { email: 'x@example.com' } }),
  },
  'POST /api/password/reset': {
    expect: 'PPPPPPP',
    request: () => ({ path: '/api/password/reset', body: {} }),
  },
  'POST /api/verification/resend': {
    expect: 'PPPPPPP',
    request: () => ({ path: '/api/verification/resend', body: { email: 'x@example.com' } }),
  },
  'GET /api/join/{healthCheckId}': { expect: 'PPPPPPP', request: (w) => ({ path: `/api/join/${check(w)}` }) },
  'GET /api/invitations/{token}': {
    expect: 'PPPPPPP',
    request: () => ({ path: `/api/invitations/${randomUUID()}` }),
  },
  'POST /api/invitations/{token}/accept-signup': {
    expect: 'PPPPPPP',
    request: () => ({ path: `/api/invitations/${randomUUID()}/accept-signup`, body: {} }),
  },
  'POST /api/account/unsubscribe': {
    expect: 'PPPPPPP',
    request: () => ({ path: '/api/account/unsubscribe', body: { token: 'bad' } }),
  },
  'POST /api/invitations/{token}/accept': {
    expect: 'DDDDDDD',
    request: async (w) => ({
      path: `/api/invitations/${(await invite(w.ctx, { jar: w.jars.admin, workspaceId: w.workspaceId })).token}/accept`,
    }),
  },

  'GET /api/me': { expect: 'DAAAAAA', request: () => ({ path: '/api/me' }) },
  'POST /api/onboarding/setup': { expect: 'DAAAAAA', request: () => ({ path: '/api/onboarding/setup' }) },
  'GET /api/events': {
    expect: byPolicy('workspace:use'),
    request: (w) => ({ path: `/api/events?topic=workspace:${w.workspaceId}` }),
  },
  'GET /api/dashboard': { expect: 'DAAAAAA', request: () => ({ path: '/api/dashboard' }) },
  'GET /api/my/health-checks': { expect: 'DAAAAAA', request: () => ({ path: '/api/my/health-checks' }) },
  'GET /api/notifications': { expect: 'DAAAAAA', request: () => ({ path: '/api/notifications' }) },
  'POST /api/notifications/read-all': {
    expect: 'DAAAAAA',
    request: () => ({ path: '/api/notifications/read-all' }),
  },
  'POST /api/notifications/{notificationId}/read': {
    expect: 'DDDDDDA',
    request: async (w) => {
      const [row] = await w.ctx.deps.db
        .insert(notifications)
        .values({ userId: w.adminId, type: 'phase-change', message: 'Moved' })
        .returning({ id: notifications.id });
      return { path: `/api/notifications/${row!.id}/read` };
    },
  },
  'GET /api/account/profile': { expect: 'DAAAAAA', request: () => ({ path: '/api/account/profile' }) },
  'GET /api/account/language': { expect: 'DAAAAAA', request: () => ({ path: '/api/account/language' }) },
  'PUT /api/account/language': {
    expect: 'DAAAAAA',
    request: () => ({ path: '/api/account/language', body: { language: null } }),
  },
  'GET /api/account/export': { expect: 'DAAAAAA', request: () => ({ path: '/api/account/export' }) },
  'GET /api/account/deletion': { expect: 'DAAAAAA', request: () => ({ path: '/api/account/deletion' }) },
  // A wrong password: past access control (400), and nobody's account goes.
  'POST /api/account/delete': {
    expect: 'DAAAAAA',
    request: () => ({
      path: '/api/account/delete',
      body: { confirm: { method: 'password', password: 'wrong-password' } },
    }),
  },
  // Only the organisation's owner (the admin): a wrong password is refused with 400, after access control.
  'POST /api/organizations/{organizationId}/transfer': {
    expect: 'DDDDDDA',
    request: async (world) => ({
      path: `/api/organizations/${await organizationOf(world)}/transfer`,
      body: { newOwnerId: randomUUID(), confirm: { method: 'password', password: 'wrong-password' } },
    }),
  },
  // A wrong name: past access control for the owner (400), and the organisation stays.
  'POST /api/organizations/{organizationId}/delete': {
    expect: 'DDDDDDA',
    request: async (world) => ({
      path: `/api/organizations/${await organizationOf(world)}/delete`,
      body: { name: 'Not its name', confirm: { method: 'password', password: 'wrong-password' } },
    }),
  },
  'PUT /api/account/profile': {
    expect: 'DAAAAAA',
    request: () => ({
      path: '/api/account/profile',
      body: { fullName: 'Renamed', role: null, department: null, bio: null },
    }),
  },
  'POST /api/account/avatar': {
    expect: 'DAAAAAA',
    request: () => {
      const form = new FormData();
      form.set(
        'photo',
        new Blob([Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')], {
          type: 'image/png',
        }),
        'a.png',
      );
      return { path: '/api/account/avatar', form };
    },
  },
  'POST /api/account/password': {
    expect: 'DAAAAAA',
    request: () => ({
      path: '/api/account/password',
      body: {
        currentPassword: 'wrong-password',
        newPassword: 'new-password-1',
        confirmPassword: 'new-password-1',
      },
    }),
  },
  'GET /api/account/notification-preferences': {
    expect: 'DAAAAAA',
    request: () => ({ path: '/api/account/notification-preferences' }),
  },
  'PUT /api/account/notification-preferences': {
    expect: 'DAAAAAA',
    request: () => ({
      path: '/api/account/notification-preferences',
      body: DEFAULT_NOTIFICATION_PREFERENCES,
    }),
  },
  'GET /api/account/security': { expect: 'DAAAAAA', request: () => ({ path: '/api/account/security' }) },
  'POST /api/account/two-factor/enrol': {
    expect: 'DAAAAAA',
    request: () => ({ path: '/api/account/two-factor/enrol', body: { password: 'wrong-password' } }),
  },
  'POST /api/account/two-factor/confirm': {
    expect: 'DAAAAAA',
    request: () => ({ path: '/api/account/two-factor/confirm', body: { code: '000000' } }),
  },
  'POST /api/account/two-factor/disable': {
    expect: 'DAAAAAA',
    request: () => ({
      path: '/api/account/two-factor/disable',
      body: { password: 'wrong-password', code: '000000' },
    }),
  },
  'POST /api/account/two-factor/recovery-codes': {
    expect: 'DAAAAAA',
    request: () => ({ path: '/api/account/two-factor/recovery-codes', body: { password: 'wrong-password' } }),
  },
  'POST /api/account/passkeys/options': {
    expect: 'DAAAAAA',
    request: () => ({
      path: '/api/account/passkeys/options',
      body: { confirm: { method: 'password', password: 'wrong-password' } },
    }),
  },
  'POST /api/account/passkeys': {
    expect: 'DAAAAAA',
    request: () => ({ path: '/api/account/passkeys', body: { name: 'Laptop', response: {} } }),
  },
  // Only the owner of a passkey can remove it; anyone else (and an unknown id) gets 404.
  'DELETE /api/account/passkeys/{passkeyId}': {
    expect: 'DDDDDDA',
    request: async (w) => {
      const id = `pk${randomUUID().replaceAll('-', '')}`;
      await w.ctx.deps.db.insert(passkey).values({
        id,
        name: 'Laptop',
        publicKey: 'key',
        userId: w.adminId,
        credentialID: id,
        counter: 0,
        deviceType: 'singleDevice',
        backedUp: false,
      });
      return { path: `/api/account/passkeys/${id}` };
    },
  },
  'PUT /api/organization/security': {
    expect: byPolicy('organization:administer'),
    request: () => ({ path: '/api/organization/security', body: { requireTwoFactor: false } }),
  },
  'GET /api/organization/language': {
    expect: byPolicy('organization:administer'),
    request: () => ({ path: '/api/organization/language' }),
  },
  'PUT /api/organization/language': {
    expect: byPolicy('organization:administer'),
    request: () => ({ path: '/api/organization/language', body: { defaultLanguage: 'en' } }),
  },
  'GET /api/organization/branding': {
    expect: byPolicy('organization:administer'),
    request: () => ({ path: '/api/organization/branding' }),
  },
  'PUT /api/organization/branding': {
    expect: byPolicy('organization:administer'),
    request: () => ({ path: '/api/organization/branding', body: { accentColor: '#1d4ed8' } }),
  },
  // The body is read only after the policy: a caller who may not change the branding never gets as far as 400.
  'POST /api/organization/branding/logo': {
    expect: byPolicy('organization:administer'),
    request: () => {
      const form = new FormData();
      form.set(
        'logo',
        new Blob([Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')], {
          type: 'image/png',
        }),
        'logo.png',
      );
      return { path: '/api/organization/branding/logo', form };
    },
  },
  'DELETE /api/organization/branding/logo': {
    expect: byPolicy('organization:administer'),
    request: () => ({ path: '/api/organization/branding/logo' }),
  },
  'GET /api/organization/sso': {
    expect: byPolicy('organization:administer'),
    request: () => ({ path: '/api/organization/sso' }),
  },
  'PUT /api/organization/sso': {
    expect: byPolicy('organization:administer'),
    request: () => ({
      path: '/api/organization/sso',
      body: { issuer: 'https://idp.example.com', clientId: 'x', clientSecret: 'y', domains: 'bank.example' },
    }),
  },
  'GET /api/organization/saml': {
    expect: byPolicy('organization:administer'),
    request: () => ({ path: '/api/organization/saml' }),
  },
  'PUT /api/organization/saml': {
    expect: byPolicy('organization:administer'),
    request: () => ({
      path: '/api/organization/saml',
      body: { metadataXml: '<EntityDescriptor/>', domains: 'bank.example' },
    }),
  },
  'PUT /api/organization/sso/switch': {
    expect: byPolicy('organization:administer'),
    request: () => ({ path: '/api/organization/sso/switch', body: { enabled: true, required: false } }),
  },
  'POST /api/organization/sso/verify-domain': {
    expect: byPolicy('organization:administer'),
    request: () => ({ path: '/api/organization/sso/verify-domain', body: { domain: 'bank.example' } }),
  },
  'GET /api/organization/scim': {
    expect: byPolicy('organization:administer'),
    request: () => ({ path: '/api/organization/scim' }),
  },
  'POST /api/organization/scim/token': {
    expect: byPolicy('organization:provision'),
    request: () => ({ path: '/api/organization/scim/token' }),
  },
  'GET /api/account/sso-link': { expect: 'DAAAAAA', request: () => ({ path: '/api/account/sso-link' }) },
  'POST /api/account/sso-link': {
    expect: 'DAAAAAA',
    request: () => ({
      path: '/api/account/sso-link',
      body: { confirm: { method: 'password', password: 'wrong-password' } },
    }),
  },
  'POST /api/organization/sso/test': {
    expect: byPolicy('organization:administer'),
    request: () => ({ path: '/api/organization/sso/test' }),
  },
  'POST /api/login/two-factor': {
    expect: 'PPPPPPP',
    request: () => ({ path: '/api/login/two-factor', body: { code: '123456' } }),
  },
  'POST /api/login/recovery-code': {
    expect: 'PPPPPPP',
    request: () => ({ path: '/api/login/recovery-code', body: { code: 'abcde-fghij' } }),
  },
  'POST /api/login/passkey/options': {
    expect: 'PPPPPPP',
    request: () => ({ path: '/api/login/passkey/options' }),
  },
  'POST /api/login/passkey': {
    expect: 'PPPPPPP',
    request: () => ({ path: '/api/login/passkey', body: { response: { id: 'x' } } }),
  },
  'POST /api/login/sso': {
    expect: 'PPPPPPP',
    request: () => ({ path: '/api/login/sso', body: { email: 'someone@no-sso.test' } }),
  },
  'GET /api/organization-logos/{logoId}': {
    expect: 'PPPPPPP',
    request: () => ({ path: `/api/organization-logos/${randomUUID()}` }),
  },
  'GET /api/avatars/{avatarId}': {
    expect: 'PPPPPPP',
    request: () => ({ path: `/api/avatars/${randomUUID()}` }),
  },

  'GET /api/workspaces': { expect: 'DAAAAAA', request: () => ({ path: '/api/workspaces' }) },
  'POST /api/workspaces': {
    expect: 'DDADDDA',
    request: () => ({ path: '/api/workspaces', body: { name: 'Another team' } }),
  },
  'PUT /api/workspaces/active': {
    expect: byPolicy('workspace:use'),
    request: (w) => ({ path: '/api/workspaces/active', body: { workspaceId: w.workspaceId } }),
  },
  'PATCH /api/workspaces/{workspaceId}': {
    expect: byPolicy('workspace:administer'),
    request: (w) => ({ path: `/api/workspaces/${w.workspaceId}`, body: { name: 'Renamed team' } }),
  },
  'GET /api/workspaces/{workspaceId}/members': {
    expect: byPolicy('workspace:use'),
    request: (w) => ({ path: `/api/workspaces/${w.workspaceId}/members` }),
  },
  'GET /api/workspaces/{workspaceId}/departments': {
    expect: byPolicy('workspace:use'),
    request: (w) => ({ path: `/api/workspaces/${w.workspaceId}/departments` }),
  },
  'POST /api/workspaces/{workspaceId}/invitations': {
    expect: byPolicy('workspace:administer'),
    request: (w) => ({
      path: `/api/workspaces/${w.workspaceId}/invitations`,
      body: { email: `${randomUUID()}@example.com`, role: 'Engineer' },
    }),
  },
  'DELETE /api/workspaces/{workspaceId}/invitations/{memberId}': {
    expect: byPolicy('workspace:administer'),
    request: async (w) => ({
      path: `/api/workspaces/${w.workspaceId}/invitations/${await pendingInvite(w)}`,
    }),
  },
  'POST /api/workspaces/{workspaceId}/invitations/{memberId}/resend': {
    expect: byPolicy('workspace:administer'),
    request: async (w) => ({
      path: `/api/workspaces/${w.workspaceId}/invitations/${await pendingInvite(w)}/resend`,
    }),
  },
  'PATCH /api/workspaces/{workspaceId}/members/{memberId}': {
    expect: byPolicy('workspace:administer'),
    request: async (w) => ({
      path: `/api/workspaces/${w.workspaceId}/members/${await freshMember(w)}`,
      body: { role: 'Lead' },
    }),
  },
  // The organisation routes below name the admin's organisation: only its owner (the admin) gets past; the
  // other admin owns another organisation (their role there is not a role here).
  'PUT /api/workspaces/{workspaceId}/members/{memberId}/organization-admin': {
    expect: 'DDDDDDA',
    request: async (w) => ({
      path: `/api/workspaces/${w.workspaceId}/members/${await freshMember(w)}/organization-admin`,
      body: { organizationAdmin: true },
    }),
  },
  // Webhooks (issue 35): a workspace's are its admins' (`webhook:manage`); the organisation-wide ones its owner's
  // and organisation admins' (the admin here; the other admin owns another organisation).
  'GET /api/workspaces/{workspaceId}/webhooks': {
    expect: byPolicy('webhook:manage'),
    request: (w) => ({ path: `/api/workspaces/${w.workspaceId}/webhooks` }),
  },
  'POST /api/workspaces/{workspaceId}/webhooks': {
    expect: byPolicy('webhook:manage'),
    request: (w) => ({ path: `/api/workspaces/${w.workspaceId}/webhooks`, body: webhookBody }),
  },
  'GET /api/organizations/{organizationId}/webhooks': {
    expect: 'DDDDDDA',
    request: (w) => ({ path: `/api/organizations/${w.organizationId}/webhooks` }),
  },
  'POST /api/organizations/{organizationId}/webhooks': {
    expect: 'DDDDDDA',
    request: (w) => ({ path: `/api/organizations/${w.organizationId}/webhooks`, body: webhookBody }),
  },
  'PATCH /api/webhooks/{webhookId}': {
    expect: byPolicy('webhook:manage'),
    request: async (w) => ({ path: `/api/webhooks/${await freshWebhook(w)}`, body: { paused: true } }),
  },
  'DELETE /api/webhooks/{webhookId}': {
    expect: byPolicy('webhook:manage'),
    request: async (w) => ({ path: `/api/webhooks/${await freshWebhook(w)}` }),
  },
  'GET /api/webhooks/{webhookId}/deliveries': {
    expect: byPolicy('webhook:manage'),
    request: async (w) => ({ path: `/api/webhooks/${await freshWebhook(w)}/deliveries` }),
  },
  'POST /api/webhooks/{webhookId}/test': {
    expect: byPolicy('webhook:manage'),
    request: async (w) => ({ path: `/api/webhooks/${await freshWebhook(w)}/test` }),
  },
  'POST /api/webhooks/{webhookId}/deliveries/{deliveryId}/resend': {
    expect: byPolicy('webhook:manage'),
    request: async (w) => {
      const webhookId = await freshWebhook(w);
      const test = await w.ctx.call(w.jars.admin, 'POST', `/api/webhooks/${webhookId}/test`);
      const { deliveryId } = (await test.json()) as { deliveryId: string };
      return { path: `/api/webhooks/${webhookId}/deliveries/${deliveryId}/resend` };
    },
  },
  'GET /api/organizations/{organizationId}/insights': {
    expect: 'DDDDDDA',
    request: (w) => ({ path: `/api/organizations/${w.organizationId}/insights` }),
  },
  'GET /api/organizations/{organizationId}/insights/csv': {
    expect: 'DDDDDDA',
    request: (w) => ({ path: `/api/organizations/${w.organizationId}/insights/csv` }),
  },
  'GET /api/organizations/{organizationId}/insights/actions': {
    expect: 'DDDDDDA',
    request: (w) => ({ path: `/api/organizations/${w.organizationId}/insights/actions` }),
  },
  'GET /api/organizations/{organizationId}/insights/loops': {
    expect: 'DDDDDDA',
    request: (w) => ({ path: `/api/organizations/${w.organizationId}/insights/loops` }),
  },
  // The audit log (issue 37): the owner's and organisation admins' (`organization:audit`).
  'GET /api/organizations/{organizationId}/audit-log': {
    expect: 'DDDDDDA',
    request: (w) => ({ path: `/api/organizations/${w.organizationId}/audit-log` }),
  },
  'GET /api/organizations/{organizationId}/audit-log/export': {
    expect: 'DDDDDDA',
    request: (w) => ({ path: `/api/organizations/${w.organizationId}/audit-log/export?format=jsonl` }),
  },
  'POST /api/organizations/{organizationId}/audit-log/verify': {
    expect: 'DDDDDDA',
    request: (w) => ({ path: `/api/organizations/${w.organizationId}/audit-log/verify` }),
  },
  'PUT /api/organizations/{organizationId}/audit-log/retention': {
    expect: 'DDDDDDA',
    request: (w) => ({
      path: `/api/organizations/${w.organizationId}/audit-log/retention`,
      body: { retentionDays: 400 },
    }),
  },
  'DELETE /api/workspaces/{workspaceId}/members/{memberId}': {
    expect: byPolicy('workspace:administer'),
    request: async (w) => ({ path: `/api/workspaces/${w.workspaceId}/members/${await freshMember(w)}` }),
  },

  'GET /api/templates': { expect: 'DAAAAAA', request: () => ({ path: '/api/templates' }) },
  'GET /api/templates/{templateId}': {
    expect: byPolicy('workspace:use'),
    request: (w) => ({ path: `/api/templates/${w.templateId}` }),
  },
  'POST /api/health-checks': {
    expect: byPolicy('workspace:use'),
    request: async (w) => ({ path: '/api/health-checks', body: await launchBody(w.ctx, w.workspaceId) }),
  },
  'GET /api/health-checks/{healthCheckId}': {
    expect: byPolicy('check:oversee'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}` }),
  },
  'GET /api/health-checks/{healthCheckId}/participants': {
    expect: byPolicy('check:oversee'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/participants` }),
  },
  'GET /api/health-checks/{healthCheckId}/share/slack': {
    expect: byPolicy('check:oversee'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/share/slack` }),
  },
  'POST /api/health-checks/{healthCheckId}/share/slack': {
    expect: byPolicy('check:oversee'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/share/slack` }),
  },
  'POST /api/health-checks/{healthCheckId}/phase': {
    expect: byPolicy('check:change'),
    request: async (w) => ({ path: `/api/health-checks/${await fresh(w)}/phase`, body: { to: 'vote' } }),
  },
  'PUT /api/health-checks/{healthCheckId}/settings': {
    expect: byPolicy('check:change'),
    request: (w) => ({
      path: `/api/health-checks/${check(w)}/settings`,
      body: { ...DEFAULT_SETTINGS, minResponses: 1 },
    }),
  },
  'POST /api/health-checks/{healthCheckId}/join': {
    expect: 'DAAAAAA',
    request: async (w) => ({ path: `/api/health-checks/${await elsewhere(w)}/join` }),
  },
  'GET /api/health-checks/{healthCheckId}/participation': {
    expect: byPolicy('check:participate'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/participation` }),
  },
  'GET /api/health-checks/{healthCheckId}/progress': {
    expect: byPolicy('check:participate'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/progress` }),
  },
  'PUT /api/health-checks/{healthCheckId}/responses': {
    expect: 'DDDDADD',
    request: (w) => ({
      path: `/api/health-checks/${check(w)}/responses`,
      body: { ...allRatingsMissing, last_component_index: 0 },
    }),
  },
  'POST /api/health-checks/{healthCheckId}/submit': {
    expect: 'DDDDADD',
    request: (w) => ({
      path: `/api/health-checks/${check(w)}/submit`,
      body: { ...allRatingsMissing, last_component_index: 0 },
    }),
  },
  'GET /api/health-checks/{healthCheckId}/results': {
    expect: byPolicy('check:view'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/results` }),
  },
  // A participant gets past access control; the rows stay withheld until results are released (409).
  'GET /api/health-checks/{healthCheckId}/results/csv': {
    expect: byPolicy('check:view'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/results/csv` }),
  },
  'POST /api/health-checks/{healthCheckId}/plan': {
    expect: byPolicy('check:change'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/plan` }),
  },
  'POST /api/health-checks/{healthCheckId}/follow-up': {
    expect: byPolicy('check:oversee'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/follow-up`, body: { date: '2099-01-01' } }),
  },
  'GET /api/health-checks/{healthCheckId}/follow-up/calendar': {
    expect: byPolicy('check:oversee'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/follow-up/calendar?date=2099-01-01` }),
  },
  'GET /api/health-checks/{healthCheckId}/votes': {
    expect: byPolicy('check:view'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/votes` }),
  },
  // Outside the voting phase everyone who can see the check gets 409 before the who-may-vote rule.
  'PUT /api/health-checks/{healthCheckId}/votes': {
    expect: byPolicy('check:view'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/votes`, body: { allocation: {} } }),
  },
  'POST /api/health-checks/{healthCheckId}/action-items': {
    expect: byPolicy('check:oversee'),
    request: (w) => ({
      path: `/api/health-checks/${check(w)}/action-items`,
      body: { description: 'Write the onboarding guide', ownerId: w.adminId },
    }),
  },
  'PATCH /api/action-items/{actionItemId}': {
    expect: byPolicy('check:oversee'),
    request: async (w) => ({
      path: `/api/action-items/${await freshActionItem(w)}`,
      body: { status: 'in-progress' },
    }),
  },
  // Trackers (issue 36): the connection is the workspace admins' and the organisation owner's (`tracker:manage`;
  // the other organisation's owner is an owner elsewhere, so refused); an action item's issue is its overseers'.
  'GET /api/workspaces/{workspaceId}/tracker-connection': {
    expect: 'DDDDDDA',
    request: (w) => ({ path: `/api/workspaces/${w.workspaceId}/tracker-connection` }),
  },
  'PUT /api/workspaces/{workspaceId}/tracker-connection': {
    expect: 'DDDDDDA',
    request: (w) => ({
      path: `/api/workspaces/${w.workspaceId}/tracker-connection`,
      body: { kind: 'github', baseUrl: 'ftp://ghe.example.com', token: 'github_pat_x' },
    }),
  },
  'PATCH /api/workspaces/{workspaceId}/tracker-connection': {
    expect: 'DDDDDDA',
    request: (w) => ({
      path: `/api/workspaces/${w.workspaceId}/tracker-connection`,
      body: { closeMarksDone: false },
    }),
  },
  'DELETE /api/workspaces/{workspaceId}/tracker-connection': {
    expect: 'DDDDDDA',
    request: (w) => ({ path: `/api/workspaces/${w.workspaceId}/tracker-connection` }),
  },
  'GET /api/health-checks/{healthCheckId}/tracker': {
    expect: byPolicy('check:oversee'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/tracker` }),
  },
  'GET /api/action-items/{actionItemId}/tracker-repositories': {
    expect: byPolicy('check:oversee'),
    request: async (w) => ({ path: `/api/action-items/${await freshActionItem(w)}/tracker-repositories` }),
  },
  'POST /api/action-items/{actionItemId}/tracker-issue': {
    expect: byPolicy('check:oversee'),
    request: async (w) => ({
      path: `/api/action-items/${await freshActionItem(w)}/tracker-issue`,
      body: { repository: 'acme/web' },
    }),
  },
  'DELETE /api/action-items/{actionItemId}/tracker-issue': {
    expect: byPolicy('check:oversee'),
    request: async (w) => ({ path: `/api/action-items/${await freshActionItem(w)}/tracker-issue` }),
  },
  'POST /api/action-items/{actionItemId}/tracker-link': {
    expect: byPolicy('check:oversee'),
    request: async (w) => ({
      path: `/api/action-items/${await freshActionItem(w)}/tracker-link`,
      body: { url: 'https://github.com/acme/web/issues/1' },
    }),
  },
  // Public: GitHub calls it; the signature decides (an unknown connection is 404).
  'POST /api/tracker-connections/{connectionId}/webhook': {
    expect: 'PPPPPPP',
    request: () => ({ path: `/api/tracker-connections/${randomUUID()}/webhook`, body: {} }),
  },
  'GET /api/health-checks/{healthCheckId}/action-items': {
    expect: byPolicy('check:oversee'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/action-items` }),
  },
  'GET /api/account/api-tokens': { expect: 'DAAAAAA', request: () => ({ path: '/api/account/api-tokens' }) },
  'POST /api/account/api-tokens': {
    expect: 'DAAAAAA',
    request: () => ({ path: '/api/account/api-tokens', body: apiTokenBody }),
  },
  // Only the person whose token it is can revoke it; anyone else (and an unknown id) gets 404.
  'DELETE /api/account/api-tokens/{apiTokenId}': {
    expect: 'DDDDDDA',
    request: async (w) => ({ path: `/api/account/api-tokens/${await freshApiToken(w, 'account')}` }),
  },
  'GET /api/organization/api-tokens': {
    expect: byPolicy('organization:administer'),
    request: () => ({ path: '/api/organization/api-tokens' }),
  },
  'POST /api/organization/api-tokens': {
    expect: byPolicy('organization:administer'),
    request: () => ({ path: '/api/organization/api-tokens', body: apiTokenBody }),
  },
  // The admin's organisation's token: the other admin administers another organisation (404 there).
  'DELETE /api/organization/api-tokens/{apiTokenId}': {
    expect: 'DDDDDDA',
    request: async (w) => ({
      path: `/api/organization/api-tokens/${await freshApiToken(w, 'organization')}`,
    }),
  },
  'GET /api/health-checks/{healthCheckId}/members': {
    expect: byPolicy('check:oversee'),
    request: (w) => ({ path: `/api/health-checks/${check(w)}/members` }),
  },
  'GET /api/workspaces/{workspaceId}/follow-up-actions': {
    expect: byPolicy('workspace:use'),
    request: (w) => ({ path: `/api/workspaces/${w.workspaceId}/follow-up-actions` }),
  },

  'POST /api/templates': {
    expect: byPolicy('workspace:use'),
    request: (w) => ({
      path: '/api/templates',
      body: { workspaceId: w.workspaceId, template: loopTemplateBody },
    }),
  },
  'POST /api/templates/health-checks': {
    expect: byPolicy('workspace:use'),
    request: async (w) => ({ path: '/api/templates/health-checks', body: await healthCheckTemplateBody(w) }),
  },
  'PATCH /api/templates/{templateId}': {
    expect: byPolicy('template:change'),
    request: async (w) => ({
      path: `/api/templates/${await freshHealthCheckTemplate(w)}`,
      body: { title: 'Renamed', description: '' },
    }),
  },
  'PUT /api/templates/{templateId}': {
    expect: byPolicy('template:change'),
    request: async (w) => ({
      path: `/api/templates/${await freshLoopTemplate(w)}`,
      body: { template: loopTemplateBody },
    }),
  },
  'DELETE /api/templates/{templateId}': {
    expect: byPolicy('template:change'),
    request: async (w) => ({ path: `/api/templates/${await freshLoopTemplate(w)}` }),
  },
  'POST /api/loops': {
    expect: byPolicy('workspace:use'),
    request: (w) => ({ path: '/api/loops', body: loopBody(w.workspaceId) }),
  },
  'GET /api/loops/{loopId}': {
    expect: byPolicy('loop:oversee'),
    request: (w) => ({ path: `/api/loops/${loopOf(w)}` }),
  },
  'PUT /api/loops/{loopId}': {
    expect: byPolicy('loop:change'),
    request: (w) => ({ path: `/api/loops/${loopOf(w)}`, body: editable(w.loop) }),
  },
  'POST /api/loops/{loopId}/pause': {
    expect: byPolicy('loop:change'),
    request: async (w) => ({ path: `/api/loops/${(await freshLoop(w)).id}/pause` }),
  },
  'POST /api/loops/{loopId}/resume': {
    expect: byPolicy('loop:change'),
    request: async (w) => ({ path: `/api/loops/${(await freshLoop(w)).id}/resume` }),
  },
  'POST /api/loops/{loopId}/stop': {
    expect: byPolicy('loop:change'),
    request: async (w) => ({ path: `/api/loops/${(await freshLoop(w)).id}/stop` }),
  },
  'POST /api/loops/{loopId}/rounds': {
    expect: byPolicy('loop:change'),
    request: async (w) => ({ path: `/api/loops/${(await freshLoop(w)).id}/rounds` }),
  },
  'POST /api/loops/{loopId}/rounds/{roundId}/close': {
    expect: byPolicy('loop:change'),
    request: async (w) => {
      const loop = await freshLoop(w);
      return { path: `/api/loops/${loop.id}/rounds/${loop.currentRound!.id}/close` };
    },
  },
  'POST /api/loops/{loopId}/rounds/{roundId}/remind': {
    expect: byPolicy('loop:change'),
    request: async (w) => {
      const loop = await freshLoop(w);
      return { path: `/api/loops/${loop.id}/rounds/${loop.currentRound!.id}/remind` };
    },
  },
  'GET /api/loops/{loopId}/completion-status': {
    expect: byPolicy('loop:oversee'),
    request: (w) => ({ path: `/api/loops/${loopOf(w)}/completion-status` }),
  },
  'GET /api/loops/{loopId}/results': {
    expect: byPolicy('loop:oversee'),
    request: (w) => ({ path: `/api/loops/${loopOf(w)}/results` }),
  },
  // Managers get past access control; an open anonymous round has nothing to export yet (409).
  'GET /api/loops/{loopId}/results/csv': {
    expect: byPolicy('loop:oversee'),
    request: (w) => ({ path: `/api/loops/${loopOf(w)}/results/csv?roundId=${roundOf(w)}` }),
  },
  'GET /api/loops/{loopId}/insights': {
    expect: byPolicy('loop:oversee'),
    request: (w) => ({ path: `/api/loops/${loopOf(w)}/insights` }),
  },
  // The personal link is the credential: whoever holds it may answer (a wrong one is simply not found).
  'GET /api/loop-answer/{token}': {
    expect: 'PPPPPPP',
    request: () => ({ path: `/api/loop-answer/${'x'.repeat(43)}` }),
  },
  'POST /api/loop-answer/{token}': {
    expect: 'PPPPPPP',
    request: () => ({ path: `/api/loop-answer/${'x'.repeat(43)}`, body: { answers: {} } }),
  },
  'POST /api/loop-answer/{token}/quick': {
    expect: 'PPPPPPP',
    request: () => ({ path: `/api/loop-answer/${'x'.repeat(43)}/quick`, body: { value: 3 } }),
  },
  'POST /api/loop-responses/continue': {
    expect: 'PPPPPPP',
    request: () => ({
      path: '/api/loop-responses/continue',
      body: { continuation: 'x'.repeat(43), answers: {} },
    }),
  },
  // Signed-in answering: the members the round was sent to (everyone of the workspace when it opened).
  // A loop's audience is its workspace's admins and members: never a link participant (PRODUCT-DECISIONS 7).
  'GET /api/loop-rounds/{roundId}/answer': {
    expect: 'DDDDDAA',
    request: (w) => ({ path: `/api/loop-rounds/${roundOf(w)}/answer` }),
  },
  'POST /api/loop-rounds/{roundId}/answer': {
    expect: 'DDDDDAA',
    request: (w) => ({ path: `/api/loop-rounds/${roundOf(w)}/answer`, body: roundAnswers(w) }),
  },
  'GET /api/my/loop-rounds': { expect: 'DAAAAAA', request: () => ({ path: '/api/my/loop-rounds' }) },
};

const ctx = useTestContext();
let world: World;
let routes: string[];

beforeAll(async () => {
  const admin = await createAdmin(ctx);
  const other = await createAdmin(ctx);
  const joinAdmin = await createAdmin(ctx);
  const checkX = await launch(ctx, admin.jar, admin.workspaceId, {
    settings: { ...DEFAULT_SETTINGS, minResponses: 1 },
  });
  const checkY = await launch(ctx, other.jar, other.workspaceId);
  const member = await signedInUser(ctx, { workspaceId: admin.workspaceId, access: 'member' });
  const participant = await signedInParticipant(
    ctx,
    { healthCheckId: checkX.id, workspaceId: admin.workspaceId },
    'in_progress',
  );
  const otherParticipant = await signedInParticipant(
    ctx,
    { healthCheckId: checkY.id, workspaceId: other.workspaceId },
    'in_progress',
  );
  const stranger = await signedInUser(ctx);
  // A workspace's own template (a launch's snapshot belongs to its check and is no template to open).
  const [workspaceTemplate] = await ctx.deps.db
    .insert(templates)
    .values({ title: 'Workspace template', type: 'health-check', workspaceId: admin.workspaceId })
    .returning({ templateId: templates.id });
  const { workspaces } = (await (await ctx.call(admin.jar, 'GET', '/api/workspaces')).json()) as {
    workspaces: { organizationId: string }[];
  };
  world = {
    ctx,
    jars: {
      anon: new CookieJar(),
      stranger: stranger.jar,
      otherAdmin: other.jar,
      otherParticipant: otherParticipant.jar,
      participant: participant.jar,
      member: member.jar,
      admin: admin.jar,
    },
    workspaceId: admin.workspaceId,
    organizationId: workspaces[0]!.organizationId,
    checkId: checkX.id,
    templateId: workspaceTemplate!.templateId,
    adminId: admin.userId,
    memberUserId: member.userId,
    joinAdmin: { jar: joinAdmin.jar, workspaceId: joinAdmin.workspaceId },
    loop: {} as LoopDetail,
  };
  // Launched once everyone of the workspace is in it, so its round is sent to the member too (and one more member,
  // so an anonymous loop has the three it needs). The link participant is never in a loop's audience.
  await addPeople(ctx, admin.workspaceId, 1, 'member');
  world.loop = await readLoop(world, (await launchLoop(ctx, admin.jar, admin.workspaceId)).id);
  const doc = (await (await ctx.request('GET', '/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  // Logout ends every session of the caller, so it runs last.
  routes = Object.entries(doc.paths)
    .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
    .sort((a, b) => Number(a === 'POST /api/logout') - Number(b === 'POST /api/logout'));
}, 120_000);

const outcome = (status: number) => (status === 401 || status === 403 || status === 404 ? 'D' : 'A');

describe('authorization matrix', () => {
  it('has an entry for every API route', () => {
    expect(routes.filter((route) => !ENTRIES[route])).toEqual([]);
  });

  it('answers every caller of every route as expected', async () => {
    const mismatches: string[] = [];
    for (const route of routes) {
      const entry = ENTRIES[route];
      if (!entry) continue;
      const [method = 'GET'] = route.split(' ');
      let actual = '';
      const statuses: number[] = [];
      for (const [index, actor] of ACTORS.entries()) {
        const request = await entry.request(world);
        const response = request.form
          ? await world.ctx.app.request(request.path, {
              method,
              body: request.form,
              headers: world.jars[actor].header(),
            })
          : await world.ctx.request(method, request.path, {
              body: request.body,
              headers: world.jars[actor].header(),
            });
        if (request.path.startsWith('/api/events') && response.status === 200) await response.body?.cancel();
        statuses.push(response.status);
        const wanted = entry.expect[index];
        if (response.status >= 500) actual += '!';
        else if (wanted === 'P') actual += 'P';
        else if (actor === 'anon' && wanted === 'D')
          actual += response.status === 401 ? 'D' : outcome(response.status) === 'D' ? '?' : 'A';
        else actual += outcome(response.status);
      }
      if (actual !== entry.expect)
        mismatches.push(`${route}: expected ${entry.expect}, got ${actual} (${statuses.join(' ')})`);
    }
    expect(mismatches).toEqual([]);
  }, 300_000);
});
