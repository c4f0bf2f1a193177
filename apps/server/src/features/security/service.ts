import { languageOfRequest, recipientLanguage, storedLanguageOf } from '../../mail/language';
import { changedFields, recordAudit, type AuditBy } from '../../audit/record';
import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import { type SecurityStatus } from '@pulsecheck/shared/auth/security';
import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import type { IdentityProof } from '@pulsecheck/shared/account/deletion';
import { APIError } from 'better-auth/api';
import { and, eq } from 'drizzle-orm';
import { PASSKEY_REFUSALS } from '../../auth/auth';
import { confirmIdentity } from '../../auth/confirm-identity';
import { endOtherSignIns } from '../../auth/factor-change';
import { grantPasskeyRegistration } from '../../auth/passkey-grant';
import { can } from '../../auth/policy';
import { organizationOf, requireOrganizationAdmin } from '../../auth/access';
import { sessionTokenIn } from '../../auth/session';
import { refuseReplayedCode } from '../../auth/two-factor';
import { first } from '../../db/client';
import { account, passkey, user } from '../../db/schema/auth';
import { organizations } from '../../db/schema/organizations';
import { AppError, forbidden, invalid, notFound } from '../../lib/app-error';
import { FailedAttempt } from '../../auth/login-limit';
import type { AppDeps } from '../../lib/router';
import { passkeyAddedMail } from '../../mail/templates';

type Deps = Pick<AppDeps, 'db' | 'auth' | 'config' | 'realtime'>;
/** The caller: who, their session's token, and the headers better-auth needs (their cookies, their address). */
type WithHeaders = { userId: string; sessionToken: string; headers: Headers };

/** better-auth's refusals, in the Security tab's words. */
function explain(error: unknown): never {
  if (!(error instanceof APIError)) throw error;
  const code = (error.body as { code?: string } | undefined)?.code;
  // A wrong password is a guess: the route counts it against the account like a failed sign-in.
  if (code === 'INVALID_PASSWORD' || code === 'INVALID_EMAIL_OR_PASSWORD')
    throw new FailedAttempt('invalid', SECURITY_MESSAGES.passwordWrong, {
      password: SECURITY_MESSAGES.passwordWrong,
    });
  if (code === 'INVALID_CODE')
    throw new AppError('unauthenticated', SECURITY_MESSAGES.codeInvalid, {
      code: SECURITY_MESSAGES.codeInvalid,
    });
  if (code === 'TOTP_ALREADY_ENABLED') throw new AppError('conflict', SECURITY_MESSAGES.alreadyEnabled);
  if (code === 'TWO_FACTOR_NOT_ENABLED' || code === 'TOTP_NOT_ENABLED')
    throw new AppError('conflict', SECURITY_MESSAGES.notEnabled);
  if (code === 'SESSION_NOT_FRESH') throw forbidden('errors.passkeySignInAgain');
  throw invalid(error.message || SECURITY_MESSAGES.passkeyFailed);
}

/** The Security tab: this person's factors, and their organisation's rule. */
export async function securityStatus(
  deps: Pick<Deps, 'db' | 'auth'>,
  userId: string,
): Promise<SecurityStatus> {
  const me = await first(
    deps.db.select({ twoFactorEnabled: user.twoFactorEnabled }).from(user).where(eq(user.id, userId)),
  );
  const password = await first(
    deps.db
      .select({ id: account.id })
      .from(account)
      .where(and(eq(account.userId, userId), eq(account.providerId, 'credential'))),
  );
  const keys = await deps.db
    .select({ id: passkey.id, name: passkey.name, createdAt: passkey.createdAt })
    .from(passkey)
    .where(eq(passkey.userId, userId))
    .orderBy(passkey.createdAt);
  const organization = await organizationOf(deps.db, userId);
  let recoveryCodesLeft: number | null = null;
  if (me?.twoFactorEnabled) {
    const { backupCodes } = await deps.auth.api.viewBackupCodes({ body: { userId } });
    recoveryCodesLeft = backupCodes.length;
  }
  return {
    twoFactorEnabled: Boolean(me?.twoFactorEnabled),
    recoveryCodesLeft,
    hasPassword: Boolean(password),
    passkeys: keys.map((key) => ({
      id: key.id,
      name: key.name ?? 'Passkey',
      createdAt: key.createdAt?.toISOString() ?? null,
    })),
    organization: organization && {
      name: organization.name,
      requireTwoFactor: organization.requireTwoFactor,
      administers: can(
        { userId, access: null, organizationRole: organization.role },
        'organization:administer',
      ),
    },
  };
}

/** Step one of enrolment: a new key (not in force until confirmed with a code), as a QR code's URI and as text. */
export async function startEnrolment(deps: Deps, options: WithHeaders & { password: string }) {
  try {
    const enabled = await deps.auth.api.enableTwoFactor({
      body: { password: options.password, method: 'totp' },
      headers: options.headers,
    });
    if (enabled.method !== 'totp') throw new Error('two-factor enable returned no URI');
    const totpURI = enabled.totpURI;
    return { totpUri: totpURI, key: new URL(totpURI).searchParams.get('secret') ?? '' };
  } catch (error) {
    return explain(error);
  }
}

/**
 * A code from the authenticator, checked by the plugin after our replay guard (auth/two-factor.ts): a wrong one
 * and a replayed one are refused alike as failures of the account (the caller counts them).
 */
async function verifyCode(deps: Deps, options: WithHeaders & { code: string }) {
  await refuseReplayedCode(deps, options.userId, options.code);
  try {
    return await deps.auth.api.verifyTOTP({
      body: { code: options.code },
      headers: options.headers,
      returnHeaders: true,
    });
  } catch (error) {
    return explain(error);
  }
}

/**
 * A factor changed (auth/factor-change.ts): every session but the caller's ends, every trusted device goes.
 * better-auth renews the caller's session when it switches two-factor on or off; its cookie then names the one kept.
 */
async function factorChanged(deps: Deps, options: WithHeaders, cookies: string[] = []) {
  await endOtherSignIns(deps, {
    userId: options.userId,
    keep: sessionTokenIn(deps.config, cookies) ?? options.sessionToken,
  });
}

/**
 * Step two: a current code switches two-factor on (better-auth renews the session, hence the cookies), and the
 * 10 recovery codes are shown, this once.
 */
export async function confirmEnrolment(deps: Deps, options: WithHeaders & { code: string }) {
  const { headers } = await verifyCode(deps, options);
  const cookies = headers.getSetCookie();
  await factorChanged(deps, options, cookies);
  const { backupCodes } = await deps.auth.api.viewBackupCodes({ body: { userId: options.userId } });
  return { recoveryCodes: backupCodes, cookies };
}

/** Switching two-factor off takes the password and a current code. */
export async function disableTwoFactor(
  deps: Deps,
  options: WithHeaders & { password: string; code: string },
) {
  await verifyCode(deps, options);
  let cookies: string[];
  try {
    const { headers } = await deps.auth.api.disableTwoFactor({
      body: { password: options.password },
      headers: options.headers,
      returnHeaders: true,
    });
    cookies = headers.getSetCookie();
  } catch (error) {
    return explain(error);
  }
  await factorChanged(deps, options, cookies);
  return cookies;
}

/** New recovery codes (with the password); the old ones stop working at once. */
export async function regenerateRecoveryCodes(deps: Deps, options: WithHeaders & { password: string }) {
  let recoveryCodes: string[];
  try {
    ({ backupCodes: recoveryCodes } = await deps.auth.api.generateBackupCodes({
      body: { password: options.password },
      headers: options.headers,
    }));
  } catch (error) {
    return explain(error);
  }
  await factorChanged(deps, options);
  return { recoveryCodes };
}

/**
 * The WebAuthn options to create a passkey for the signed-in person (the challenge rides in a signed cookie), for
 * the proof that deleting the account asks (`confirmIdentity`); the proof is granted to this challenge only
 * (auth/passkey-grant.ts), so a stolen session cannot add a passkey that outlives a password change.
 */
export async function passkeyRegistrationOptions(
  deps: Deps,
  options: WithHeaders & { confirm: IdentityProof },
) {
  await confirmIdentity(deps, { ...options, proof: options.confirm });
  let registration: { headers: Headers; response: { challenge: string } };
  try {
    registration = await deps.auth.api.generatePasskeyRegistrationOptions({
      headers: options.headers,
      returnHeaders: true,
    });
  } catch (error) {
    return explain(error);
  }
  await grantPasskeyRegistration(deps.db, options.userId, registration.response.challenge);
  return {
    options: registration.response as unknown as Record<string, unknown>,
    cookies: registration.headers.getSetCookie(),
  };
}

/** Saves the passkey the browser created for the granted options, and tells the owner by e-mail. */
export async function addPasskey(
  deps: Deps & Pick<AppDeps, 'mailer'>,
  options: {
    headers: Headers;
    userId: string;
    owner: { email: string; name: string };
    name: string;
    response: Record<string, unknown>;
  },
) {
  let created: { id: string; name?: string | null; createdAt: Date };
  try {
    created = await deps.auth.api.verifyPasskeyRegistration({
      body: { name: options.name, response: options.response },
      headers: options.headers,
    });
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    const code = (error.body as { code?: string } | undefined)?.code;
    if (code === PASSKEY_REFUSALS.noProof) throw forbidden(SECURITY_MESSAGES.passkeyProofRequired);
    if (code === PASSKEY_REFUSALS.userVerification) throw invalid(SECURITY_MESSAGES.passkeyUserVerification);
    throw invalid(SECURITY_MESSAGES.passkeyFailed);
  }
  const name = created.name ?? options.name;
  await deps.mailer.enqueue({
    kind: 'passkey-added',
    to: options.owner.email,
    ...passkeyAddedMail({
      name: options.owner.name,
      passkey: name,
      appUrl: deps.config.appUrl,
      // Added by the owner, in a request of theirs: their choice, else the request's language.
      locale: recipientLanguage({
        language: await storedLanguageOf(deps.db, options.userId),
        request: languageOfRequest(options.headers, deps.config),
      }),
    }),
  });
  return { id: created.id, name, createdAt: created.createdAt.toISOString() };
}

/**
 * Removes one of the person's own passkeys (anyone else's, or none, is a 404); a factor changed, so their other
 * sessions and trusted devices end.
 */
export async function removePasskey(deps: Deps, options: WithHeaders & { passkeyId: string }) {
  const removed = await deps.db
    .delete(passkey)
    .where(and(eq(passkey.id, options.passkeyId), eq(passkey.userId, options.userId)))
    .returning({ id: passkey.id });
  if (removed.length === 0) throw notFound(NOT_FOUND_MESSAGES.passkey);
  await factorChanged(deps, options);
}

/**
 * Require two-factor for everyone in the organisation (its admins only). The admin must have it on first, so
 * that the rule never locks its own author out; members without it are asked to enrol at their next request.
 */
export async function setOrganizationSecurity(
  deps: Pick<AppDeps, 'db'>,
  options: { userId: string; requireTwoFactor: boolean; by: AuditBy },
) {
  const organization = await requireOrganizationAdmin(deps.db, options.userId);
  if (options.requireTwoFactor) {
    const me = await first(
      deps.db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, options.userId)),
    );
    if (!me?.on) throw new AppError('conflict', 'errors.twoFactorYourselfFirst');
  }
  if (organization.requireTwoFactor === options.requireTwoFactor) return;
  await deps.db.transaction(async (tx) => {
    await tx
      .update(organizations)
      .set({ requireTwoFactor: options.requireTwoFactor })
      .where(eq(organizations.id, organization.id));
    await recordAudit(tx, organization.id, options.by, {
      action: 'organization.settings-changed',
      targetType: 'organization',
      targetId: organization.id,
      targetLabel: organization.name,
      changes: changedFields(
        { requireTwoFactor: organization.requireTwoFactor },
        { requireTwoFactor: options.requireTwoFactor },
      ),
    });
  });
}
