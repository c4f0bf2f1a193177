import { zodResolver } from '@hookform/resolvers/zod';
import { loginSchema } from '@pulsecheck/shared/auth/schemas';
import {
  acceptSignupSchema,
  TEAM_MESSAGES,
  type AcceptSignupInput,
  type InvitationInfo,
} from '@pulsecheck/shared/team/schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { Button, SubmitButton } from '@/components/ui/button';
import { CardPage } from '@/components/ui/card-page';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { toast } from '@/components/ui/toaster';
import { FullPageSpinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { applyServerErrors, errorMessage } from '@/lib/forms';
import { say, t, tRich } from '@/lib/i18n';
import { SecondFactorForm } from '@/lib/second-factor';
import { fetchSession, logIn, replaceSession, useLogout, useSession } from '@/lib/session';
import { acceptInvitation, acceptWithSignup, invitationQuery } from './api';

/** A form field's message: the shared rules' (a catalogue key) in the app's language, the server's as it came. */
const said = (message: string | undefined) => (message ? say(message) : undefined);

function Shell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <CardPage>
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      <div className="mt-4 space-y-4">{children}</div>
    </CardPage>
  );
}

/** /invite/:token: who is invited where, and the one way in that fits (join, sign in and join, or sign up). */
export function AcceptInvitationPage() {
  const { token = '' } = useParams();
  const invitation = useQuery(invitationQuery(token));
  const session = useSession();

  if (invitation.isPending || session.isPending) return <FullPageSpinner label={t('team.accept.loading')} />;
  if (invitation.isError) {
    const unknown = invitation.error instanceof ApiError && invitation.error.status === 404;
    return (
      <Shell title={t('team.accept.invalidTitle')}>
        <Notice tone="error">
          {unknown ? say(TEAM_MESSAGES.invitationInvalid) : invitation.error.message}
        </Notice>
        <Link to="/" className="inline-block text-sm font-medium text-brand-700 underline">
          {t('team.accept.returnHome')}
        </Link>
      </Shell>
    );
  }
  const info = invitation.data;
  if (info.state === 'expired') {
    return (
      <Shell title={t('team.accept.expiredTitle')}>
        <Notice tone="error">{say(TEAM_MESSAGES.invitationExpired)}</Notice>
        <Link to="/" className="inline-block text-sm font-medium text-brand-700 underline">
          {t('team.accept.returnHome')}
        </Link>
      </Shell>
    );
  }
  if (info.state === 'accepted') {
    return (
      <Shell title={t('team.accept.acceptedTitle')}>
        <p className="text-sm text-slate-700">{say(TEAM_MESSAGES.invitationAccepted)}</p>
        <Button asChild className="w-full">
          <Link to={session.data ? session.data.home : '/login'}>
            {session.data ? t('common.continue') : t('team.accept.logIn')}
          </Link>
        </Button>
      </Shell>
    );
  }
  const title = t('team.accept.title', { workspace: info.workspaceName });
  const intro = (
    <p className="text-sm text-slate-700">
      {tRich('team.accept.intro', {
        hasInviter: info.invitedBy ? 'yes' : 'no',
        invitedBy: info.invitedBy ?? '',
        workspace: info.workspaceName,
        hasRole: info.role ? 'yes' : 'no',
        role: info.role ?? '',
        email: info.email,
        strong: (chunks) => <strong>{chunks}</strong>,
        address: (chunks) => <strong className="break-all">{chunks}</strong>,
      })}
    </p>
  );
  return (
    <Shell title={title}>
      {intro}
      {session.data ? (
        session.data.email.toLowerCase() === info.email ? (
          <JoinAsSignedIn token={token} />
        ) : (
          <WrongAccount email={session.data.email} />
        )
      ) : info.accountExists ? (
        <SignInAndJoin token={token} info={info} />
      ) : (
        <SignUpAndJoin token={token} info={info} />
      )}
    </Shell>
  );
}

/** After accepting: the new session and active workspace, then into the admin area. */
function useEnter() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (redirectTo: string) => {
    replaceSession(queryClient, await fetchSession());
    await navigate(redirectTo, { replace: true });
  };
}

function JoinAsSignedIn({ token }: { token: string }) {
  const enter = useEnter();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const join = async () => {
    setPending(true);
    setFailure(null);
    try {
      await enter((await acceptInvitation(token)).redirectTo);
    } catch (error) {
      setFailure(errorMessage(error, t('team.accept.failed')));
      setPending(false);
    }
  };
  return (
    <>
      {failure && <Notice tone="error">{failure}</Notice>}
      <Button className="w-full" size="lg" disabled={pending} onClick={() => void join()}>
        {pending ? t('team.accept.joining') : t('team.accept.accept')}
      </Button>
    </>
  );
}

function WrongAccount({ email }: { email: string }) {
  const { logOut, pending } = useLogout();
  return (
    <>
      <Notice tone="error">
        {t('team.accept.signedInAs', { email, reason: say(TEAM_MESSAGES.invitationWrongUser) })}
      </Notice>
      <Button variant="secondary" className="w-full" disabled={pending} onClick={logOut}>
        {pending ? t('team.accept.loggingOut') : t('team.accept.logOut')}
      </Button>
    </>
  );
}

const signInSchema = loginSchema.pick({ password: true });

/** Signs in with the password (and the second factor, where two-factor sign-in is on), then joins. */
function SignInAndJoin({ token, info }: { token: string; info: InvitationInfo }) {
  const enter = useEnter();
  const queryClient = useQueryClient();
  const headingId = useId();
  const [secondStep, setSecondStep] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<{ password: string }>({
    resolver: zodResolver(signInSchema),
    defaultValues: { password: '' },
  });
  const { register, handleSubmit, formState } = form;
  const onSubmit = handleSubmit(async ({ password }) => {
    setFailure(null);
    try {
      const answer = await logIn({ email: info.email, password, rememberMe: false });
      if ('twoFactorRequired' in answer) {
        setSecondStep(true);
        return;
      }
      await enter((await acceptInvitation(token)).redirectTo);
    } catch (error) {
      setFailure(applyServerErrors(error, form, t('team.accept.failed')));
    }
  });
  if (secondStep) {
    return (
      <section aria-labelledby={headingId} className="space-y-3">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          {t('team.accept.twoFactor')}
        </h2>
        <SecondFactorForm
          onSignedIn={async (user) => {
            try {
              await enter((await acceptInvitation(token)).redirectTo);
            } catch (error) {
              // Signed in, but not joined: the page shows the invitation as it now is, for this account.
              toast.error(errorMessage(error, t('team.accept.failed')));
              replaceSession(queryClient, user);
            }
          }}
          onRestart={() => {
            setSecondStep(false);
            form.reset();
          }}
        />
      </section>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <p className="text-sm text-slate-700">{say(TEAM_MESSAGES.invitationAccountExists)}</p>
      {failure && <Notice tone="error">{failure}</Notice>}
      <FormField label={t('common.email')}>
        <Input type="email" value={info.email} readOnly />
      </FormField>
      <FormField label={t('common.password')} error={said(formState.errors.password?.message)}>
        <Input type="password" autoComplete="current-password" {...register('password')} />
      </FormField>
      <SubmitButton
        className="w-full"
        size="lg"
        pending={formState.isSubmitting}
        busy={t('team.accept.joining')}
      >
        {t('team.accept.signInAndJoin')}
      </SubmitButton>
    </form>
  );
}

function SignUpAndJoin({ token, info }: { token: string; info: InvitationInfo }) {
  const enter = useEnter();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<AcceptSignupInput>({
    resolver: zodResolver(acceptSignupSchema),
    defaultValues: { fullName: '', password: '', confirmPassword: '' },
  });
  const { register, handleSubmit, formState } = form;
  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await enter((await acceptWithSignup(token, values)).redirectTo);
    } catch (error) {
      setFailure(applyServerErrors(error, form, t('team.accept.createFailed')));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <p className="text-sm text-slate-700">{t('team.accept.createToJoin')}</p>
      {failure && <Notice tone="error">{failure}</Notice>}
      <FormField label={t('team.accept.fullName')} error={said(formState.errors.fullName?.message)}>
        <Input autoComplete="name" {...register('fullName')} />
      </FormField>
      <FormField label={t('common.email')}>
        <Input type="email" value={info.email} readOnly />
      </FormField>
      <FormField
        label={t('common.password')}
        error={said(formState.errors.password?.message)}
        hint={t('team.accept.passwordHint')}
      >
        <Input type="password" autoComplete="new-password" {...register('password')} />
      </FormField>
      <FormField
        label={t('team.accept.confirmPassword')}
        error={said(formState.errors.confirmPassword?.message)}
      >
        <Input type="password" autoComplete="new-password" {...register('confirmPassword')} />
      </FormField>
      <SubmitButton
        className="w-full"
        size="lg"
        pending={formState.isSubmitting}
        busy={t('team.accept.creating')}
      >
        {t('team.accept.createAndJoin')}
      </SubmitButton>
    </form>
  );
}
