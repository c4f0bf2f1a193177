import { zodResolver } from '@hookform/resolvers/zod';
import {
  acceptSignupSchema,
  TEAM_MESSAGES,
  type AcceptSignupInput,
  type InvitationInfo,
} from '@pulsecheck/shared/team/schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Logo } from '@/components/ui/logo';
import { FullPageSpinner } from '@/components/ui/spinner';
import { ApiError, apiPost } from '@/lib/api-client';
import { fetchSession, sessionQueryKey, useSession } from '@/lib/session';
import { acceptInvitation, acceptWithSignup, invitationQuery } from './api';

function Shell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-10">
      <Logo />
      <main className="mt-6 w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        <div className="mt-4 space-y-4">{children}</div>
      </main>
    </div>
  );
}

function Problem({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
      {children}
    </p>
  );
}

const messageOf = (error: unknown, fallback: string) => (error instanceof Error ? error.message : fallback);

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
        <Problem>{unknown ? TEAM_MESSAGES.invitationInvalid : invitation.error.message}</Problem>
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
        <Problem>{TEAM_MESSAGES.invitationExpired}</Problem>
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
    const user = await fetchSession();
    queryClient.setQueryData(sessionQueryKey, user);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
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
      setFailure(messageOf(error, 'Failed to accept the invitation'));
      setPending(false);
    }
  };
  return (
    <>
      {failure && <Problem>{failure}</Problem>}
      <Button className="w-full" size="lg" disabled={pending} onClick={() => void join()}>
        {pending ? 'Joining...' : 'Accept invitation'}
      </Button>
    </>
  );
}

function WrongAccount({ email }: { email: string }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const logOut = async () => {
    setPending(true);
    try {
      await apiPost('/logout');
    } finally {
      queryClient.setQueryData(sessionQueryKey, null);
      setPending(false);
    }
  };
  return (
    <>
      <Problem>
        You are signed in as {email}. {TEAM_MESSAGES.invitationWrongUser}
      </Problem>
      <Button variant="secondary" className="w-full" disabled={pending} onClick={() => void logOut()}>
        {pending ? 'Logging out...' : 'Log out'}
      </Button>
    </>
  );
}

function SignInAndJoin({ token, info }: { token: string; info: InvitationInfo }) {
  const enter = useEnter();
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setFailure('Password is required');
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      await apiPost('/login', { email: info.email, password, rememberMe: false });
      await enter((await acceptInvitation(token)).redirectTo);
    } catch (error) {
      setFailure(messageOf(error, 'Failed to accept the invitation'));
      setPending(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
      <p className="text-sm text-slate-700">{TEAM_MESSAGES.invitationAccountExists}</p>
      {failure && <Problem>{failure}</Problem>}
      <FormField label="Email">
        <Input type="email" value={info.email} readOnly />
      </FormField>
      <FormField label="Password">
        <Input
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </FormField>
      <Button type="submit" className="w-full" size="lg" disabled={pending}>
        {pending ? 'Joining...' : 'Sign in and join'}
      </Button>
    </form>
  );
}

function SignUpAndJoin({ token, info }: { token: string; info: InvitationInfo }) {
  const enter = useEnter();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError } = useForm<AcceptSignupInput>({
    resolver: zodResolver(acceptSignupSchema),
    defaultValues: { fullName: '', password: '', confirmPassword: '' },
  });
  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await enter((await acceptWithSignup(token, values)).redirectTo);
    } catch (error) {
      if (error instanceof ApiError && error.fields) {
        for (const [field, message] of Object.entries(error.fields)) {
          if (field in values) setError(field as keyof AcceptSignupInput, { message });
        }
      }
      setFailure(messageOf(error, 'Failed to create your account'));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <p className="text-sm text-slate-700">Create your account to join.</p>
      {failure && <Problem>{failure}</Problem>}
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
      <Button type="submit" className="w-full" size="lg" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Creating account...' : 'Create account and join'}
      </Button>
    </form>
  );
}
