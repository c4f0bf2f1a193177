import { auditBy } from '../../audit/record';
import { z } from '@hono/zod-openapi';
import {
  ACCOUNT_MESSAGES,
  AVATAR_MAX_BYTES,
  avatarResponseSchema,
  changePasswordSchema,
  notificationPreferencesResponseSchema,
  notificationPreferencesSchema,
  profileResponseSchema,
  unsubscribeResponseSchema,
  unsubscribeSchema,
  updateProfileSchema,
} from '@pulsecheck/shared/account/schemas';
import { okSchema } from '@pulsecheck/shared/auth/schemas';
import {
  DELETION_MESSAGES,
  deleteAccountSchema,
  deleteOrganizationSchema,
  deletionStatusSchema,
  transferOwnershipSchema,
} from '@pulsecheck/shared/account/deletion';
import { bodyLimit } from 'hono/body-limit';
import { limitFailedLogins } from '../../auth/login-limit';
import { requireUser, setCookies, signedSessionToken } from '../../auth/session';
import { logOut } from '../auth/service';
import * as deletion from './deletion';
import { AppError, invalid } from '../../lib/app-error';
import { authHeaders } from '../../lib/client-ip';
import { routes } from '../../lib/openapi';
import { exportFileName, exportPersonalData } from './export';
import * as service from './service';

// Room for the multipart envelope around a photo of the largest allowed size.
const UPLOAD_LIMIT = AVATAR_MAX_BYTES + 64 * 1024;

const account = routes('account');

account.router.use(
  '/account/avatar',
  bodyLimit({
    maxSize: UPLOAD_LIMIT,
    onError: () => {
      throw new AppError('payload_too_large', ACCOUNT_MESSAGES.photoTooLarge, {
        photo: ACCOUNT_MESSAGES.photoTooLarge,
      });
    },
  }),
);

account
  .call(
    'get /account/profile',
    "The signed-in user's profile",
    { ok: [200, profileResponseSchema, 'Profile'] },
    async (deps, { userId }) => ({ profile: await service.getProfile(deps, userId) }),
  )
  .call(
    'put /account/profile',
    'Save full name, role (job title), team/department and bio; the e-mail is read-only',
    { body: updateProfileSchema, ok: [200, profileResponseSchema, 'Saved'] },
    async (deps, input) => ({ profile: await service.updateProfile(deps, input) }),
  )
  .handle(
    'post /account/avatar',
    'Upload a profile photo (multipart field "photo"): PNG, JPEG, WebP or GIF by content, at most 2 MB',
    {
      form: z.object({ photo: z.any().openapi({ type: 'string', format: 'binary' }) }),
      ok: [200, avatarResponseSchema, 'Stored'],
      errors: [401, 413],
    },
    async (c) => {
      const user = await requireUser(c);
      let form: Record<string, unknown>;
      try {
        form = await c.req.parseBody();
      } catch {
        throw invalid(ACCOUNT_MESSAGES.photoMissing, { photo: ACCOUNT_MESSAGES.photoMissing });
      }
      const photo = form.photo;
      if (!(photo instanceof File))
        throw invalid(ACCOUNT_MESSAGES.photoMissing, { photo: ACCOUNT_MESSAGES.photoMissing });
      const bytes = new Uint8Array(await photo.arrayBuffer());
      return c.json(await service.updateAvatar(c.get('deps'), { userId: user.id, bytes }), 200);
    },
  )
  .handle(
    'get /avatars/{avatarId}',
    'A profile photo (signed-in users); ids change with every upload, so it caches for good',
    { ok: [200, z.any(), 'The image', 'image/*'], errors: [401] },
    async (c) => {
      await requireUser(c);
      const { avatarId } = c.req.valid('param');
      const etag = `"${avatarId}"`;
      c.header('Cache-Control', 'private, max-age=31536000, immutable');
      c.header('ETag', etag);
      if (c.req.header('if-none-match') === etag) return c.body(null, 304);
      const avatar = await service.getAvatar(c.get('deps'), avatarId);
      c.header('Content-Type', avatar.contentType);
      c.header('Content-Disposition', 'inline');
      return c.body(new Uint8Array(avatar.data), 200);
    },
  )
  .handle(
    'post /account/password',
    'Change the password (current one checked); every other session and trusted device of the user ends, and their passkeys with `removePasskeys`',
    { body: changePasswordSchema, ok: [200, okSchema, 'Changed'], errors: [400, 401, 429] },
    async (c) => {
      const user = await requireUser(c);
      const body = c.req.valid('json');
      const cookies = await limitFailedLogins(c, user.email, () =>
        service.changePassword(c.get('deps'), { userId: user.id, ...body, headers: authHeaders(c) }),
      );
      setCookies(c, cookies);
      return c.json({ ok: true as const }, 200);
    },
  )
  .handle(
    'get /account/export',
    '"Download my data": a JSON file of everything stored about the signed-in person (docs/security.md says what is left out and why)',
    {
      ok: [200, z.record(z.string(), z.unknown()), 'The file (Content-Disposition: attachment)'],
      errors: [401],
    },
    async (c) => {
      const user = await requireUser(c);
      const now = new Date();
      const data = await exportPersonalData(c.get('deps'), user.id, now);
      c.header('Content-Disposition', `attachment; filename="${exportFileName(now)}"`);
      return c.json(data, 200);
    },
  )
  .call(
    'get /account/notification-preferences',
    'Notification settings (the spec defaults where nothing was saved)',
    { ok: [200, notificationPreferencesResponseSchema, 'Settings'] },
    async (deps, { userId }) => ({ preferences: await service.getPreferences(deps, userId) }),
  )
  .call(
    'put /account/notification-preferences',
    'Save every notification setting at once',
    { body: notificationPreferencesSchema, ok: [200, notificationPreferencesResponseSchema, 'Saved'] },
    async (deps, { userId, by: _by, ...preferences }) => ({
      preferences: await service.savePreferences(deps, { userId, preferences }),
    }),
  )
  .handle(
    'post /account/unsubscribe',
    "Turn off the e-mails an e-mailed link's signed token names (no session)",
    { public: true, body: unsubscribeSchema, ok: [200, unsubscribeResponseSchema, 'Unsubscribed'] },
    async (c) => {
      const unsubscribed = await service.unsubscribe(c.get('deps'), c.req.valid('json').token);
      return c.json({ ok: true as const, unsubscribed }, 200);
    },
  );

account
  .call(
    'get /account/deletion',
    'What deleting the account involves: how to confirm it, and the organisations to hand over or delete first',
    { ok: [200, deletionStatusSchema, 'What it involves'] },
    (deps, { userId }) => deletion.deletionStatus(deps, userId),
  )
  .handle(
    'post /account/delete',
    'Delete the signed-in account (password or authenticator code, or a recent sign-in without a password); refused while it owns an organisation',
    {
      body: deleteAccountSchema,
      ok: [200, okSchema, 'Deleted; the session cookie is cleared'],
      errors: [401, 409, 429],
    },
    async (c) => {
      const user = await requireUser(c);
      const deps = c.get('deps');
      await limitFailedLogins(
        c,
        user.email,
        () =>
          deletion.deleteAccount(deps, {
            userId: user.id,
            sessionToken: signedSessionToken(c) ?? '',
            proof: c.req.valid('json').confirm,
            by: auditBy(c, user),
          }),
        { pausedMessage: DELETION_MESSAGES.tooManyAttempts },
      );
      setCookies(c, await logOut(deps, { userId: undefined, headers: authHeaders(c) }));
      return c.json({ ok: true as const }, 200);
    },
  )
  .handle(
    'post /organizations/{organizationId}/transfer',
    'Hand the organisation over to another of its admins (its owner only, with the proof deleting the account asks)',
    {
      body: transferOwnershipSchema,
      ok: [200, z.object({ name: z.string() }), 'The new owner'],
      errors: [401, 409, 429],
    },
    async (c) => {
      const user = await requireUser(c);
      const { newOwnerId, confirm } = c.req.valid('json');
      const heir = await limitFailedLogins(
        c,
        user.email,
        () =>
          deletion.transferOwnership(c.get('deps'), {
            userId: user.id,
            sessionToken: signedSessionToken(c) ?? '',
            organizationId: c.req.valid('param').organizationId,
            newOwnerId,
            proof: confirm,
            by: auditBy(c, user),
          }),
        { pausedMessage: DELETION_MESSAGES.tooManyAttempts },
      );
      return c.json(heir, 200);
    },
  )
  .handle(
    'post /organizations/{organizationId}/delete',
    'Delete the organisation and every row of it (its owner only, with its name typed and the same proof)',
    { body: deleteOrganizationSchema, ok: [200, okSchema, 'Deleted'], errors: [401, 429] },
    async (c) => {
      const user = await requireUser(c);
      const { name, confirm } = c.req.valid('json');
      await limitFailedLogins(
        c,
        user.email,
        () =>
          deletion.deleteOrganization(c.get('deps'), {
            userId: user.id,
            sessionToken: signedSessionToken(c) ?? '',
            organizationId: c.req.valid('param').organizationId,
            name,
            proof: confirm,
          }),
        { pausedMessage: DELETION_MESSAGES.tooManyAttempts },
      );
      return c.json({ ok: true as const }, 200);
    },
  );

export const accountRoutes = account.router;
