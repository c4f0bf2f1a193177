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
import { say, t, tRich } from '@/lib/i18n';

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
      <AuthShell title={t('auth.emailNotSentTitle')}>
        <Notice tone="error">{say(AUTH_MESSAGES.resetFailed)}</Notice>
        <p className="mt-3 text-sm text-slate-700">{say(MAIL_MESSAGES.off)}</p>
        <Button variant="secondary" className="mt-6 w-full" onClick={() => setMode('login')}>
          {t('auth.backToLogin')}
        </Button>
      </AuthShell>
    );
  }
  if (mode === 'sent') {
    return (
      <AuthShell title={t('auth.checkEmailTitle')}>
        <Notice tone="success">{t('auth.resetLinkSent', { email: sent.email })}</Notice>
        <Button variant="secondary" className="mt-6 w-full" onClick={() => setMode('login')}>
          {t('auth.backToLogin')}
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
      setFailure(applyServerErrors(error, form, t('auth.signInFailed')));
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
      title={t('auth.welcomeBack')}
      subtitle={t('auth.loginSubtitle')}
      footer={tRich('auth.loginFooter', {
        link: (chunks) => (
          <Link to="/admin/signup" className="font-medium text-brand-700 underline">
            {chunks}
          </Link>
        ),
      })}
    >
      <form
        onSubmit={(event) => void onSubmit(event)}
        onFocus={loginValidation.preload}
        noValidate
        className="space-y-4"
      >
        {handedOver && handedOver !== 'forgot' && !failure && (
          <Notice tone="success">{say(handedOver)}</Notice>
        )}
        {failure && <Notice tone="error">{say(failure)}</Notice>}
        {unconfirmed && (
          <div className="space-y-2">
            <Button
              type="button"
              variant="secondary"
              className="w-full"
              onClick={() => void onResend()}
              disabled={resend.state === 'sending'}
            >
              {resend.state === 'sending' ? t('auth.sending') : t('auth.resendVerification')}
            </Button>
            {resend.state === 'sent' && <Notice tone="success">{say(AUTH_MESSAGES.verificationSent)}</Notice>}
            {resend.state === 'failed' && <Notice tone="error">{say(AUTH_MESSAGES.resendFailed)}</Notice>}
            {resend.state === 'off' && (
              <Notice tone="error">
                {say(AUTH_MESSAGES.resendFailed)} {say(MAIL_MESSAGES.off)}
              </Notice>
            )}
          </div>
        )}
        <FormField label={t('common.email')} error={errors.email}>
          <Input type="email" autoComplete="email" {...field('email')} />
        </FormField>
        <FormField label={t('common.password')} error={errors.password}>
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
              {t('auth.rememberMe')}
            </Label>
          </div>
          <Button type="button" variant="link" className="h-auto px-0" onClick={onForgot}>
            {t('auth.forgotPassword')}
          </Button>
        </div>
        <SubmitButton className="w-full" size="lg" pending={form.pending} busy={t('auth.signingIn')}>
          {t('auth.signIn')}
        </SubmitButton>
      </form>
      <div className="mt-6 space-y-3 border-t border-slate-200 pt-6">
        {ssoRequired && <p className="text-sm text-slate-700">{t('auth.ssoRequired')}</p>}
        <Button variant="secondary" className="w-full" onClick={() => onSso(getValues().email)}>
          {t('auth.ssoTitle')}
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
    <AuthShell title={t('auth.resetTitle')} subtitle={t('auth.resetSubtitle')}>
      <form
        onSubmit={(event) => void onSubmit(event)}
        onFocus={forgotValidation.preload}
        noValidate
        className="space-y-4"
      >
        {failure && <Notice tone="error">{say(failure)}</Notice>}
        <FormField label={t('common.email')} error={form.errors.email}>
          <Input type="email" autoComplete="email" autoFocus {...form.field('email')} />
        </FormField>
        <SubmitButton className="w-full" pending={form.pending} busy={t('auth.sending')}>
          {t('auth.sendResetLink')}
        </SubmitButton>
        <Button type="button" variant="ghost" className="w-full" onClick={onCancel}>
          {t('auth.backToLogin')}
        </Button>
      </form>
    </AuthShell>
  );
}
