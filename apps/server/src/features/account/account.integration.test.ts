import {
  ACCOUNT_MESSAGES,
  AVATAR_MAX_BYTES,
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferences,
} from '@pulsecheck/shared/account/schemas';
import { describe, expect, it } from 'vitest';
import { createAdmin, signIn } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { json, type Jar, english } from '../../test/requests';
import { unsubscribeToken } from './unsubscribe-token';

const ctx = useTestContext();

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

async function upload(jar: Jar, bytes: Uint8Array, name = 'photo.png', type = 'image/png') {
  const form = new FormData();
  form.append('photo', new File([new Uint8Array(bytes)], name, { type }));
  return ctx.app.request('/api/account/avatar', { method: 'POST', body: form, headers: jar.header() });
}

describe('profile', () => {
  it('loads and saves the editable fields; the e-mail stays', async () => {
    const admin = await createAdmin(ctx);
    const loaded = await json<{ profile: Record<string, unknown> }>(
      await ctx.call(admin.jar, 'GET', '/api/account/profile'),
    );
    expect(loaded.profile).toMatchObject({
      fullName: 'Ada Admin',
      email: admin.email,
      role: 'Head of People',
      avatarUrl: null,
    });
    const saved = await ctx.call(admin.jar, 'PUT', '/api/account/profile', {
      fullName: ' Ada Lovelace ',
      role: 'CTO',
      department: 'Engineering',
      bio: 'Counts things.',
    });
    expect(saved.status).toBe(200);
    expect((await json<{ profile: unknown }>(saved)).profile).toMatchObject({
      fullName: 'Ada Lovelace',
      email: admin.email,
      role: 'CTO',
      department: 'Engineering',
      bio: 'Counts things.',
    });
    const withEmail = await ctx.call(admin.jar, 'PUT', '/api/account/profile', {
      fullName: 'X',
      role: null,
      department: null,
      bio: null,
      email: 'other@example.com',
    });
    expect(withEmail.status).toBe(400);
    const blank = await ctx.call(admin.jar, 'PUT', '/api/account/profile', {
      fullName: '  ',
      role: null,
      department: null,
      bio: null,
    });
    expect((await json(blank)).error.fields?.fullName).toBe(english(ACCOUNT_MESSAGES.fullNameRequired));
    expect((await ctx.request('GET', '/api/account/profile')).status).toBe(401);
  });
});

describe('profile photo', () => {
  it('stores a PNG in the database and serves it with its type and long caching', async () => {
    const admin = await createAdmin(ctx);
    const response = await upload(admin.jar, PNG, 'me.bin', 'application/octet-stream');
    expect(response.status).toBe(200);
    const { avatarUrl } = await json<{ avatarUrl: string }>(response);
    expect(avatarUrl).toMatch(/^\/api\/avatars\/[0-9a-f-]{36}$/);
    const me = await json<{ user: { avatarUrl: string } }>(await ctx.call(admin.jar, 'GET', '/api/me'));
    expect(me.user.avatarUrl).toBe(avatarUrl);
    const image = await ctx.call(admin.jar, 'GET', avatarUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    const cached = await ctx.request('GET', avatarUrl, {
      headers: { ...admin.jar.header(), 'if-none-match': image.headers.get('etag')! },
    });
    expect(cached.status).toBe(304);

    const gif = await json<{ avatarUrl: string }>(await upload(admin.jar, GIF, 'x.gif', 'image/gif'));
    const gifImage = await ctx.call(admin.jar, 'GET', gif.avatarUrl);
    expect(gifImage.headers.get('content-type')).toBe('image/gif');
    // The old photo is gone.
    expect((await ctx.call(admin.jar, 'GET', avatarUrl)).status).toBe(404);
  });

  it('refuses what is not an image by its bytes, whatever its name says', async () => {
    const admin = await createAdmin(ctx);
    const fake = await upload(
      admin.jar,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      'cat.png',
      'image/png',
    );
    expect(fake.status).toBe(400);
    expect((await json(fake)).error.message).toBe(english(ACCOUNT_MESSAGES.photoType));
    const me = await json<{ user: { avatarUrl: string | null } }>(
      await ctx.call(admin.jar, 'GET', '/api/me'),
    );
    expect(me.user.avatarUrl).toBeNull();
  });

  it('refuses a photo over 2 MB with 413, and accepts one of exactly 2 MB', async () => {
    const admin = await createAdmin(ctx);
    const big = Buffer.alloc(AVATAR_MAX_BYTES + 1);
    PNG.copy(big);
    const tooBig = await upload(admin.jar, big);
    expect(tooBig.status).toBe(413);
    expect((await json(tooBig)).error.message).toBe(english(ACCOUNT_MESSAGES.photoTooLarge));
    const huge = await upload(admin.jar, Buffer.alloc(AVATAR_MAX_BYTES * 3));
    expect(huge.status).toBe(413);
    const exact = Buffer.alloc(AVATAR_MAX_BYTES);
    PNG.copy(exact);
    expect((await upload(admin.jar, exact)).status).toBe(200);
  });
});

describe('password change', () => {
  it('checks every rule with the spec messages', async () => {
    const admin = await createAdmin(ctx);
    const cases = [
      [
        { currentPassword: '', newPassword: 'new-password-1', confirmPassword: 'new-password-1' },
        english(ACCOUNT_MESSAGES.allFieldsRequired),
      ],
      [
        { currentPassword: admin.password, newPassword: 'new-password-1', confirmPassword: 'new-password-2' },
        english(ACCOUNT_MESSAGES.passwordsDoNotMatch),
      ],
      [
        { currentPassword: admin.password, newPassword: 'short', confirmPassword: 'short' },
        english(ACCOUNT_MESSAGES.passwordTooShort),
      ],
      [
        {
          currentPassword: 'not-my-password',
          newPassword: 'new-password-1',
          confirmPassword: 'new-password-1',
        },
        english(ACCOUNT_MESSAGES.currentPasswordIncorrect),
      ],
    ] as const;
    for (const [body, message] of cases) {
      const response = await ctx.request('POST', '/api/account/password', {
        body,
        headers: admin.jar.header(),
      });
      expect(response.status).toBe(400);
      expect((await json(response)).error.message).toBe(message);
    }
    const login = await ctx.request('POST', '/api/login', {
      body: { email: admin.email, password: admin.password },
    });
    expect(login.status).toBe(200);
  });

  it('changes it, keeps this session, ends the others, and the new password signs in', async () => {
    const admin = await createAdmin(ctx);
    const other = await signIn(ctx, admin.email, admin.password);
    expect((await ctx.call(other, 'GET', '/api/me')).status).toBe(200);

    const changed = admin.jar.store(
      await ctx.call(admin.jar, 'POST', '/api/account/password', {
        currentPassword: admin.password,
        newPassword: 'brand-new-pass',
        confirmPassword: 'brand-new-pass',
      }),
    );
    expect(changed.status).toBe(200);
    expect((await ctx.call(admin.jar, 'GET', '/api/me')).status).toBe(200);
    expect((await ctx.call(other, 'GET', '/api/me')).status).toBe(401);
    expect(
      (await ctx.request('POST', '/api/login', { body: { email: admin.email, password: admin.password } }))
        .status,
    ).toBe(401);
    expect(
      (await ctx.request('POST', '/api/login', { body: { email: admin.email, password: 'brand-new-pass' } }))
        .status,
    ).toBe(200);
  });
});

describe('notification preferences', () => {
  it('starts from the spec defaults, saves everything, and refuses a webhook that is not https', async () => {
    const admin = await createAdmin(ctx);
    const initial = await json<{ preferences: NotificationPreferences }>(
      await ctx.call(admin.jar, 'GET', '/api/account/notification-preferences'),
    );
    expect(initial.preferences).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
    const next: NotificationPreferences = structuredClone(DEFAULT_NOTIFICATION_PREFERENCES);
    next.emailNotifications.weeklyDigest = false;
    next.pushNotifications.surveyReminders = true;
    next.slackNotifications = {
      ...next.slackNotifications,
      channel: '#team-health',
      webhookUrl: 'https://hooks.slack.com/services/T/B/X',
      dailyDigest: true,
    };
    const saved = await ctx.call(admin.jar, 'PUT', '/api/account/notification-preferences', next);
    expect(saved.status).toBe(200);
    const reloaded = await json<{ preferences: NotificationPreferences }>(
      await ctx.call(admin.jar, 'GET', '/api/account/notification-preferences'),
    );
    expect(reloaded.preferences).toEqual(next);

    const insecure = structuredClone(next);
    insecure.slackNotifications.webhookUrl = 'http://hooks.slack.com/services/T/B/X';
    const refused = await ctx.call(admin.jar, 'PUT', '/api/account/notification-preferences', insecure);
    expect(refused.status).toBe(400);
    expect((await json(refused)).error.message).toBe(english(ACCOUNT_MESSAGES.webhookHttps));
    const partial = await ctx.call(admin.jar, 'PUT', '/api/account/notification-preferences', {
      emailNotifications: next.emailNotifications,
    });
    expect(partial.status).toBe(400);
  });

  it('unsubscribes from reminders with the signed token only', async () => {
    const admin = await createAdmin(ctx);
    const bad = await ctx.request('POST', '/api/account/unsubscribe', {
      body: { token: `${unsubscribeToken('another-secret-another-secret-000', admin.userId)}` },
    });
    expect(bad.status).toBe(400);
    const token = unsubscribeToken(ctx.deps.config.authSecret, admin.userId);
    for (let i = 0; i < 2; i++) {
      expect((await ctx.request('POST', '/api/account/unsubscribe', { body: { token } })).status).toBe(200);
    }
    const prefs = await json<{ preferences: NotificationPreferences }>(
      await ctx.call(admin.jar, 'GET', '/api/account/notification-preferences'),
    );
    expect(prefs.preferences.emailNotifications).toEqual({
      ...DEFAULT_NOTIFICATION_PREFERENCES.emailNotifications,
      surveyReminders: false,
    });
  });
});
