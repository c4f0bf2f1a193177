import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, validSignup } from '../../test/accounts';
import { createTestContext, type TestContext } from '../../test/harness';
import { type ErrorJson, json } from '../../test/requests';

/**
 * Issue 34: the server answers its errors in the request's language (Accept-Language), validation and not-found
 * alike, with the same codes whatever the language; English without a header; the pseudo-locale outside
 * production.
 */

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof createAdmin>>;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await createAdmin(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const signUpWithoutEmail = async (acceptLanguage?: string) => {
  const response = await ctx.request('POST', '/api/signup', {
    body: validSignup({ email: '' }),
    headers: acceptLanguage ? { 'Accept-Language': acceptLanguage } : {},
  });
  return { status: response.status, body: await json<ErrorJson>(response) };
};

const unknownCheck = async (acceptLanguage?: string) => {
  const response = await ctx.request('GET', `/api/health-checks/${randomUUID()}`, {
    headers: { ...admin.jar.header(), ...(acceptLanguage ? { 'Accept-Language': acceptLanguage } : {}) },
  });
  return { status: response.status, body: await json<ErrorJson>(response) };
};

const LANGUAGES = [
  { header: undefined, emailRequired: 'Email is required', notFound: 'Health check not found' },
  { header: 'en-GB,en;q=0.9', emailRequired: 'Email is required', notFound: 'Health check not found' },
  {
    header: 'de-DE,de;q=0.9,en;q=0.8',
    emailRequired: 'Die E-Mail-Adresse ist erforderlich',
    notFound: 'Health Check nicht gefunden',
  },
  {
    header: 'fr-FR',
    emailRequired: 'L’adresse e-mail est obligatoire',
    notFound: 'Bilan de santé introuvable',
  },
  {
    header: 'es',
    emailRequired: 'El correo electrónico es obligatorio',
    notFound: 'Chequeo de salud no encontrado',
  },
  { header: 'pt-BR', emailRequired: 'O e-mail é obrigatório', notFound: 'Check-up de saúde não encontrado' },
];

describe('errors in the request’s language', () => {
  for (const { header, emailRequired, notFound } of LANGUAGES) {
    it(`answers a validation error and a not-found in ${header ?? 'English, without a header'}`, async () => {
      const invalid = await signUpWithoutEmail(header);
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.code).toBe('invalid');
      expect(invalid.body.error.message).toBe(emailRequired);
      expect(invalid.body.error.fields?.email).toBe(emailRequired);

      const missing = await unknownCheck(header);
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('not_found');
      expect(missing.body.error.message).toBe(notFound);
    });
  }

  it('answers en-XA in the pseudo-locale outside production, codes unchanged', async () => {
    const invalid = await signUpWithoutEmail('en-XA');
    expect([invalid.status, invalid.body.error.code]).toEqual([400, 'invalid']);
    expect(invalid.body.error.message).toMatch(/^⟦Ḗḿȧīŀ īş řḗɋŭīřḗḓ·+⟧$/);
    expect(invalid.body.error.fields?.email).toBe(invalid.body.error.message);

    const missing = await unknownCheck('en-XA');
    expect([missing.status, missing.body.error.code]).toEqual([404, 'not_found']);
    expect(missing.body.error.message).toMatch(/^⟦Ħḗȧŀŧħ ƈħḗƈķ ƞǿŧ ƒǿŭƞḓ·+⟧$/);
  });

  it('keeps a workspace’s own code in every language', async () => {
    for (const header of ['de', 'fr', 'es', 'pt-BR']) {
      const response = await ctx.request('PATCH', `/api/workspaces/${randomUUID()}`, {
        body: { name: 'Renamed' },
        headers: { ...admin.jar.header(), 'Accept-Language': header },
      });
      const body = await json<ErrorJson>(response);
      expect([response.status, body.error.code], header).toEqual([404, 'workspace_not_found']);
      expect(body.error.message, header).not.toBe('Workspace not found');
      expect(body.error.message, header).not.toBe('notFound.workspace');
    }
  });
});
