import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import { MAIL_MESSAGES, type MailState } from '@pulsecheck/shared/mail/delivery';
import type { CurrentUser } from '@pulsecheck/shared/auth/schemas';
import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Button, SubmitButton } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { Label } from '@/components/ui/label';
import { ApiError } from '@/lib/api-client';
import { applyServerErrors } from '@/lib/forms';
import { lazySchema, useLightForm } from '@/lib/light-form';
import { logIn, replaceSession, useSession } from '@/lib/session';
import { useQueryClient } from '@tanstack/react-query';
import { requestPasswordReset, resendVerification, safeReturnPath, stateText } from './api';
import { AuthShell } from './auth-shell';
import { PasskeySignIn, SecondStep, SsoSignIn, ssoErrorText } from './sign-in-steps';

type Mode = 'login' | 'forgot' | 'sent' | 'second-step' | 'sso';

// The forms validate with the shared schemas, whose code (zod) loads when a form gets focus or is submitted;
// they are light forms (lib/light-form.ts), not react-hook-form ones, to keep this first screen small.
const loginValidation = lazySchema(async () => (await import('@pulsecheck/shared/auth/schemas')).loginSchema);
const forgotValidation = lazySchema(
  async () => (await import('@pulsecheck/shared/auth/schemas')).forgotPasswordSchema,
);

export function LoginPage() {
  const session = useSession();
  const location = useLocation();
  const [params] = useSearchParams();
  const [mode, setMode] = useState<Mode>(
    stateText(location.state, 'message') === 'forgot' ? 'forgot' : 'login',
  );
  const [sent, setSent] = useState<{ email: string; mail: MailState }>({ email: '', mail: 'sending' });
  const [ssoEmail, setSsoEmail] = useState('');
  const onSignedIn = useSignedIn();

  // The form shows at once, without waiting for the session (visitors of /login are nearly always signed
  // out); a signed-in visitor is sent on as soon as the session is known.
  if (session.data)
    return <Navigate to={safeReturnPath(location.state, params) ?? session.data.home} replace />;

  if (mode === 'sent' && sent.mail === 'off') {
    // E-mail switched off on the server (MAIL_DISABLED): no reset link went out, and the screen says so.
    return (
      <AuthShell title="Email could not be sent">
        <Notice tone="error">{AUTH_MESSAGES.resetFailed}</Notice>
        <p className="mt-3 text-sm text-slate-700">{MAIL_MESSAGES.off}</p>
        <Button variant="secondary" className="mt-6 w-full" onClick={() => setMode('login')}>
          Back to login
        </Button>
      </AuthShell>
    );
  }
  if (mode === 'sent') {
    return (
      <AuthShell title="Check your email">
        <Notice tone="success">
          If an account exists for {sent.email}, we sent a link to reset its password. It expires in 1 hour.
        </Notice>
        <Button variant="secondary" className="mt-6 w-full" onClick={() => setMode('login')}>
          Back to login
        </Button>
      </AuthShell>
    );
  }
  if (mode === 'second-step')
    return <SecondStep onSignedIn={onSignedIn} onRestart={() => setMode('login')} />;
  if (mode === 'sso') return <SsoSignIn email={ssoEmail} onCancel={() => setMode('login')} />;
  if (mode === 'forgot') {
    return (
      <ForgotPassword
        onCancel={() => setMode('login')}
        onSent={(email, mail) => {
          setSent({ email, mail });
          setMode('sent');
        }}
      />
    );
  }
  return (
    <LoginForm
      onForgot={() => setMode('forgot')}
      onSecondStep={() => setMode('second-step')}
      onSso={(email) => {
        setSsoEmail(email);
        setMode('sso');
      }}
      onSignedIn={onSignedIn}
    />
  );
}

/** Stores the signed-in user and goes where they were headed, or home. */
function useSignedIn() {
  const location = useLocation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (user: CurrentUser) => {
    replaceSession(queryClient, user);
    void navigate(safeReturnPath(location.state, params) ?? user.home, { replace: true });
  };
}

function LoginForm({
  onForgot,
  onSecondStep,
  onSso,
  onSignedIn,
}: {
  onForgot: () => void;
  onSecondStep: () => void;
  onSso: (email: string) => void;
  onSignedIn: (user: CurrentUser) => void;
}) {
  const location = useLocation();
  const [params] = useSearchParams();
  const handedOver = stateText(location.state, 'message');
  const handedError = stateText(location.state, 'error') ?? ssoErrorText(params.get('sso_error'));
  const [failure, setFailure] = useState<string | null>(handedError);
  const [ssoRequired, setSsoRequired] = useState(false);
  const [unconfirmed, setUnconfirmed] = useState(false);
  const [resend, setResend] = useState<{ state: 'idle' | 'sending' | 'sent' | 'off' | 'failed' }>({
    state: 'idle',
  });
  const form = useLightForm(loginValidation, { email: '', password: '' });
  const { field, errors, getValues } = form;
  const [rememberMe, setRememberMe] = useState(false);

  const onSubmit = form.submit(async (values) => {
    setFailure(null);
    setUnconfirmed(false);
    setSsoRequired(false);
    try {
      const answer = await logIn({ ...values, rememberMe });
      if ('twoFactorRequired' in answer) onSecondStep();
      else onSignedIn(answer.user);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'email_not_confirmed') setUnconfirmed(true);
      if (error instanceof ApiError && error.code === 'sso_required') setSsoRequired(true);
      setFailure(applyServerErrors(error, form, 'Could not sign in. Please try again.'));
    }
  });

  const onResend = async () => {
    setResend({ state: 'sending' });
    try {
      const { mail } = await resendVerification(getValues().email);
      setResend({ state: mail === 'off' ? 'off' : 'sent' });
    } catch {
      setResend({ state: 'failed' });
    }
  };

  return (
    <AuthShell
      title="Welcome back"
      subtitle="Log in to Pulsecheck"
      footer={
        <>
          New to Pulsecheck?{' '}
          <Link to="/admin/signup" className="font-medium text-brand-700 underline">
            Create your workspace
          </Link>
        </>
      }
    >
      <form
        onSubmit={(event) => void onSubmit(event)}
        onFocus={loginValidation.preload}
        noValidate
        className="space-y-4"
      >
        {handedOver && handedOver !== 'forgot' && !failure && <Notice tone="success">{handedOver}</Notice>}
        {failure && <Notice tone="error">{failure}</Notice>}
        {unconfirmed && (
          <div className="space-y-2">
            <Button
              type="button"
              variant="secondary"
              className="w-full"
              onClick={() => void onResend()}
              disabled={resend.state === 'sending'}
            >
              {resend.state === 'sending' ? 'Sending...' : 'Resend verification email'}
            </Button>
            {resend.state === 'sent' && <Notice tone="success">{AUTH_MESSAGES.verificationSent}</Notice>}
            {resend.state === 'failed' && <Notice tone="error">{AUTH_MESSAGES.resendFailed}</Notice>}
            {resend.state === 'off' && (
              <Notice tone="error">
                {AUTH_MESSAGES.resendFailed} {MAIL_MESSAGES.off}
              </Notice>
            )}
          </div>
        )}
        <FormField label="Email" error={errors.email}>
          <Input type="email" autoComplete="email" {...field('email')} />
        </FormField>
        <FormField label="Password" error={errors.password}>
          <Input type="password" autoComplete="current-password" {...field('password')} />
        </FormField>
        <div className="flex items-center justify-between gap-4">
          <div className="flex items-center gap-2">
            <Checkbox
              id="remember-me"
              checked={rememberMe}
              onCheckedChange={(checked) => setRememberMe(checked === true)}
            />
            <Label htmlFor="remember-me" className="font-normal">
              Remember me
            </Label>
          </div>
          <Button type="button" variant="link" className="h-auto px-0" onClick={onForgot}>
            Forgot password?
          </Button>
        </div>
        <SubmitButton className="w-full" size="lg" pending={form.pending} busy="Signing in...">
          Sign in
        </SubmitButton>
      </form>
      <div className="mt-6 space-y-3 border-t border-slate-200 pt-6">
        {ssoRequired && <p className="text-sm text-slate-700">Your organisation uses single sign-on:</p>}
        <Button variant="secondary" className="w-full" onClick={() => onSso(getValues().email)}>
          Sign in with SSO
        </Button>
        <PasskeySignIn onSignedIn={onSignedIn} onFailure={setFailure} />
      </div>
    </AuthShell>
  );
}

function ForgotPassword({
  onCancel,
  onSent,
}: {
  onCancel: () => void;
  onSent: (email: string, mail: MailState) => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useLightForm(forgotValidation, { email: '' });
  const onSubmit = form.submit(async ({ email }) => {
    setFailure(null);
    try {
      const { mail } = await requestPasswordReset(email);
      onSent(email, mail);
    } catch (error) {
      setFailure(applyServerErrors(error, form, AUTH_MESSAGES.resetFailed));
    }
  });
  return (
    <AuthShell
      title="Reset your password"
      subtitle="Enter your email and we will send you a link to choose a new password."
    >
      <form
        onSubmit={(event) => void onSubmit(event)}
        onFocus={forgotValidation.preload}
        noValidate
        className="space-y-4"
      >
        {failure && <Notice tone="error">{failure}</Notice>}
        <FormField label="Email" error={form.errors.email}>
          <Input type="email" autoComplete="email" autoFocus {...form.field('email')} />
        </FormField>
        <SubmitButton className="w-full" pending={form.pending} busy="Sending...">
          Send reset link
        </SubmitButton>
        <Button type="button" variant="ghost" className="w-full" onClick={onCancel}>
          Back to login
        </Button>
      </form>
    </AuthShell>
  );
}
