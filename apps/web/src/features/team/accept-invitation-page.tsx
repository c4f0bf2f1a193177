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
import { SecondFactorForm } from '@/lib/second-factor';
import { fetchSession, logIn, replaceSession, useLogout, useSession } from '@/lib/session';
import { acceptInvitation, acceptWithSignup, invitationQuery } from './api';

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

  if (invitation.isPending || session.isPending) return <FullPageSpinner label="Loading invitation..." />;
  if (invitation.isError) {
    const unknown = invitation.error instanceof ApiError && invitation.error.status === 404;
    return (
      <Shell title="Invitation not valid">
        <Notice tone="error">{unknown ? TEAM_MESSAGES.invitationInvalid : invitation.error.message}</Notice>
        <Link to="/" className="inline-block text-sm font-medium text-brand-700 underline">
          Return Home
        </Link>
      </Shell>
    );
  }
  const info = invitation.data;
  if (info.state === 'expired') {
    return (
      <Shell title="Invitation expired">
        <Notice tone="error">{TEAM_MESSAGES.invitationExpired}</Notice>
        <Link to="/" className="inline-block text-sm font-medium text-brand-700 underline">
          Return Home
        </Link>
      </Shell>
    );
  }
  if (info.state === 'accepted') {
    return (
      <Shell title="Invitation already accepted">
        <p className="text-sm text-slate-700">{TEAM_MESSAGES.invitationAccepted}</p>
        <Button asChild className="w-full">
          <Link to={session.data ? session.data.home : '/login'}>{session.data ? 'Continue' : 'Log in'}</Link>
        </Button>
      </Shell>
    );
  }
  const title = `Join ${info.workspaceName}`;
  const intro = (
    <p className="text-sm text-slate-700">
      {info.invitedBy ? `${info.invitedBy} invited you` : 'You are invited'} to join the workspace{' '}
      <strong>{info.workspaceName}</strong> on Pulsecheck{info.role ? ` as ${info.role}` : ''}. The invitation
      is for <strong className="break-all">{info.email}</strong>.
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
      setFailure(errorMessage(error, 'Failed to accept the invitation'));
      setPending(false);
    }
  };
  return (
    <>
      {failure && <Notice tone="error">{failure}</Notice>}
      <Button className="w-full" size="lg" disabled={pending} onClick={() => void join()}>
        {pending ? 'Joining...' : 'Accept invitation'}
      </Button>
    </>
  );
}

function WrongAccount({ email }: { email: string }) {
  const { logOut, pending } = useLogout();
  return (
    <>
      <Notice tone="error">
        You are signed in as {email}. {TEAM_MESSAGES.invitationWrongUser}
      </Notice>
      <Button variant="secondary" className="w-full" disabled={pending} onClick={logOut}>
        {pending ? 'Logging out...' : 'Log out'}
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
      setFailure(applyServerErrors(error, form, 'Failed to accept the invitation'));
    }
  });
  if (secondStep) {
    return (
      <section aria-labelledby={headingId} className="space-y-3">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          Two-factor sign-in
        </h2>
        <SecondFactorForm
          onSignedIn={async (user) => {
            try {
              await enter((await acceptInvitation(token)).redirectTo);
            } catch (error) {
              // Signed in, but not joined: the page shows the invitation as it now is, for this account.
              toast.error(errorMessage(error, 'Failed to accept the invitation'));
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
      <p className="text-sm text-slate-700">{TEAM_MESSAGES.invitationAccountExists}</p>
      {failure && <Notice tone="error">{failure}</Notice>}
      <FormField label="Email">
        <Input type="email" value={info.email} readOnly />
      </FormField>
      <FormField label="Password" error={formState.errors.password?.message}>
        <Input type="password" autoComplete="current-password" {...register('password')} />
      </FormField>
      <SubmitButton className="w-full" size="lg" pending={formState.isSubmitting} busy="Joining...">
        Sign in and join
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
      setFailure(applyServerErrors(error, form, 'Failed to create your account'));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <p className="text-sm text-slate-700">Create your account to join.</p>
      {failure && <Notice tone="error">{failure}</Notice>}
      <FormField label="Full Name" error={formState.errors.fullName?.message}>
        <Input autoComplete="name" {...register('fullName')} />
      </FormField>
      <FormField label="Email">
        <Input type="email" value={info.email} readOnly />
      </FormField>
      <FormField label="Password" error={formState.errors.password?.message} hint="At least 8 characters">
        <Input type="password" autoComplete="new-password" {...register('password')} />
      </FormField>
      <FormField label="Confirm Password" error={formState.errors.confirmPassword?.message}>
        <Input type="password" autoComplete="new-password" {...register('confirmPassword')} />
      </FormField>
      <SubmitButton className="w-full" size="lg" pending={formState.isSubmitting} busy="Creating account...">
        Create account and join
      </SubmitButton>
    </form>
  );
}
