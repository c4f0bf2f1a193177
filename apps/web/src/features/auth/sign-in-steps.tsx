import { SECURITY_MESSAGES, SSO_ERRORS, type SsoErrorCode } from '@pulsecheck/shared/auth/security-messages';
import type { CurrentUser } from '@pulsecheck/shared/auth/schemas';
import { Fingerprint } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button, SubmitButton } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { apiPost } from '@/lib/api-client';
import { errorMessage } from '@/lib/forms';
import { SecondFactorForm } from '@/lib/second-factor';
import { AuthShell } from './auth-shell';
import { say, t } from '@/lib/i18n';

/** The other ways in than a password (issue 15): the second step, a passkey, single sign-on. */

type SignedIn = (user: CurrentUser) => void;

/** What the login page says when the identity provider's sign-in came back refused (`?sso_error=`). */
export function ssoErrorText(code: string | null) {
  if (!code) return null;
  return say(SSO_ERRORS[code as SsoErrorCode] ?? SSO_ERRORS.failed);
}

/** After the password: the second factor (lib/second-factor.tsx) on a screen of its own. */
export function SecondStep({ onSignedIn, onRestart }: { onSignedIn: SignedIn; onRestart: () => void }) {
  return (
    <AuthShell title={t('auth.twoFactorTitle')}>
      <SecondFactorForm onSignedIn={onSignedIn} onRestart={onRestart} />
    </AuthShell>
  );
}

/** 'Sign in with a passkey': the browser's authenticator answers the server's challenge. */
export function PasskeySignIn({
  onSignedIn,
  onFailure,
}: {
  onSignedIn: SignedIn;
  onFailure: (message: string) => void;
}) {
  const [pending, setPending] = useState(false);
  const signIn = async () => {
    setPending(true);
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const optionsJSON =
        await apiPost<Parameters<typeof startAuthentication>[0]['optionsJSON']>('/login/passkey/options');
      const response = await startAuthentication({ optionsJSON });
      const { user } = await apiPost<{ user: CurrentUser }>('/login/passkey', { response });
      onSignedIn(user);
    } catch (error) {
      const cancelled = error instanceof Error && error.name === 'NotAllowedError';
      onFailure(
        cancelled
          ? say(SECURITY_MESSAGES.passkeySignInFailed)
          : errorMessage(error, SECURITY_MESSAGES.passkeySignInFailed),
      );
      setPending(false);
    }
  };
  return (
    <Button variant="secondary" className="w-full" disabled={pending} onClick={() => void signIn()}>
      <Fingerprint aria-hidden="true" />
      {pending ? t('auth.passkeyWaiting') : t('auth.passkeySignIn')}
    </Button>
  );
}

/** 'Sign in with SSO': the e-mail's domain picks the organisation's identity provider; the browser goes there. */
export function SsoSignIn({ email: initialEmail, onCancel }: { email: string; onCancel: () => void }) {
  const [email, setEmail] = useState(initialEmail);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setPending(true);
    try {
      const { url } = await apiPost<{ url: string }>('/login/sso', { email });
      window.location.assign(url);
    } catch (error) {
      setFailure(errorMessage(error, SSO_ERRORS.failed));
      setPending(false);
    }
  };
  return (
    <AuthShell title={t('auth.ssoTitle')} subtitle={t('auth.ssoSubtitle')}>
      <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
        {failure && <Notice tone="error">{say(failure)}</Notice>}
        <FormField label={t('auth.workEmail')}>
          <Input
            type="email"
            autoComplete="email"
            autoFocus
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </FormField>
        <SubmitButton className="w-full" size="lg" pending={pending} busy={t('auth.redirecting')}>
          {t('common.continue')}
        </SubmitButton>
        <Button variant="ghost" className="w-full" onClick={onCancel}>
          {t('auth.backToLogin')}
        </Button>
      </form>
    </AuthShell>
  );
}
