import { BRANDING_MESSAGES, LOGO_MAX_BYTES } from '@pulsecheck/shared/branding/rules';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { organizationAdmins, workspaces } from '../../db/schema/organizations';
import { createAdmin, signedInUser, useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { CookieJar, english, json, type Jar } from '../../test/requests';

const ctx = useTestContext();
const owner = useAdmin(ctx);

type BrandingJson = {
  branding: { organizationName: string; logoUrl: string | null; accentColor: string | null };
};

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
);

function upload(jar: Jar, bytes: Uint8Array, type = 'image/png') {
  const form = new FormData();
  form.set('logo', new File([new Uint8Array(bytes)], 'logo', { type }));
  return ctx.app.request('/api/organization/branding/logo', {
    method: 'POST',
    body: form,
    headers: jar.header(),
  });
}

async function organizationOf(workspaceId: string) {
  const [row] = await ctx.deps.db
    .select({ id: workspaces.organizationId })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row!.id;
}

describe('organisation branding', () => {
  it('owner and organisation admins read and change it; a workspace admin or member gets 403, someone in no organisation 404', async () => {
    const organizationId = await organizationOf(owner.workspaceId);
    const orgAdmin = await signedInUser(ctx, { workspaceId: owner.workspaceId, access: 'admin' });
    await ctx.deps.db.insert(organizationAdmins).values({ organizationId, userId: orgAdmin.userId });
    const workspaceAdmin = await signedInUser(ctx, { workspaceId: owner.workspaceId, access: 'admin' });
    const member = await signedInUser(ctx, { workspaceId: owner.workspaceId });
    const outsider = await signedInUser(ctx);

    const saved = await ctx.call(orgAdmin.jar, 'PUT', '/api/organization/branding', {
      accentColor: '#1D4ED8',
    });
    expect(saved.status).toBe(200);
    expect((await json<BrandingJson>(saved)).branding).toMatchObject({
      accentColor: '#1d4ed8',
      logoUrl: null,
    });
    const read = await ctx.call(owner.jar, 'GET', '/api/organization/branding');
    expect((await json<BrandingJson>(read)).branding.accentColor).toBe('#1d4ed8');

    for (const { jar } of [workspaceAdmin, member]) {
      expect((await ctx.call(jar, 'GET', '/api/organization/branding')).status).toBe(403);
      expect(
        (await ctx.call(jar, 'PUT', '/api/organization/branding', { accentColor: '#000000' })).status,
      ).toBe(403);
      expect((await upload(jar, PNG)).status).toBe(403);
      expect((await ctx.call(jar, 'DELETE', '/api/organization/branding/logo')).status).toBe(403);
    }
    expect(
      (await ctx.call(outsider.jar, 'PUT', '/api/organization/branding', { accentColor: '#000000' })).status,
    ).toBe(404);
    expect((await ctx.request('GET', '/api/organization/branding')).status).toBe(401);
    expect((await upload(new CookieJar(), PNG)).status).toBe(401);
    const after = await ctx.call(owner.jar, 'GET', '/api/organization/branding');
    expect((await json<BrandingJson>(after)).branding.accentColor).toBe('#1d4ed8');
  }, 90_000);

  it('refuses a colour white text is unreadable on, or that is not #rrggbb, with the shared messages; null removes it', async () => {
    const light = await ctx.call(owner.jar, 'PUT', '/api/organization/branding', { accentColor: '#ffff00' });
    expect(light.status).toBe(400);
    expect((await json(light)).error.fields?.accentColor).toContain('choose a darker colour');
    const malformed = await ctx.call(owner.jar, 'PUT', '/api/organization/branding', { accentColor: 'red' });
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).error.fields?.accentColor).toBe(english(BRANDING_MESSAGES.colorFormat));
    const removed = await ctx.call(owner.jar, 'PUT', '/api/organization/branding', { accentColor: null });
    expect((await json<BrandingJson>(removed)).branding.accentColor).toBeNull();
  });

  it('takes a PNG logo, serves it publicly with safe headers, replaces and removes it', async () => {
    const admin = await createAdmin(ctx);
    const stored = await upload(admin.jar, PNG, 'application/octet-stream');
    expect(stored.status).toBe(200);
    const { logoUrl } = (await json<BrandingJson>(stored)).branding;
    expect(logoUrl).toMatch(/^\/api\/organization-logos\/[0-9a-f-]{36}$/);

    const served = await ctx.request('GET', logoUrl!);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);

    const replaced = await json<BrandingJson>(await upload(admin.jar, PNG));
    expect(replaced.branding.logoUrl).not.toBe(logoUrl);
    expect((await ctx.request('GET', logoUrl!)).status).toBe(404);

    const removed = await ctx.call(admin.jar, 'DELETE', '/api/organization/branding/logo');
    expect((await json<BrandingJson>(removed)).branding.logoUrl).toBeNull();
    expect((await ctx.request('GET', replaced.branding.logoUrl!)).status).toBe(404);
    expect((await ctx.request('GET', '/api/organization-logos/not-an-id')).status).toBe(404);
  });

  it('refuses SVG (even named image/png), GIF, an empty file and one over the limit', async () => {
    const admin = await createAdmin(ctx);
    for (const [bytes, type] of [
      [SVG, 'image/svg+xml'],
      [SVG, 'image/png'],
      [new TextEncoder().encode('GIF89a\x01\x00'), 'image/gif'],
    ] as const) {
      const refused = await upload(admin.jar, bytes, type);
      expect(refused.status).toBe(400);
      expect((await json(refused)).error.fields?.logo).toBe(english(BRANDING_MESSAGES.logoType));
    }
    expect((await upload(admin.jar, new Uint8Array())).status).toBe(400);
    const big = new Uint8Array(LOGO_MAX_BYTES + 1);
    big.set(PNG);
    const tooBig = await upload(admin.jar, big);
    expect(tooBig.status).toBe(413);
    expect((await json(tooBig)).error.message).toBe(english(BRANDING_MESSAGES.logoTooLarge));
    const after = await ctx.call(admin.jar, 'GET', '/api/organization/branding');
    expect((await json<BrandingJson>(after)).branding.logoUrl).toBeNull();
  });
});
