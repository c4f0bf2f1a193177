import { zodResolver } from '@hookform/resolvers/zod';
import {
  AUTH_MESSAGES,
  participantSignupSchema,
  type ParticipantSignupInput,
} from '@pulsecheck/shared/auth/schemas';
import { useQuery } from '@tanstack/react-query';
import { ClipboardCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Logo } from '@/components/ui/logo';
import { FullPageSpinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { joinInfoQuery, signUpParticipant } from './api';

/**
 * /signup/{id} and /signup/health-check/{id}: 'Join Health Check' with the check's title; full name, e-mail
 * and password. After the e-mailed verification the user is registered and lands on the check.
 */
export function ParticipantSignupPage() {
  const { healthCheckId = '' } = useParams();
  const session = useSession();
  const info = useQuery({ ...joinInfoQuery(healthCheckId), enabled: session.isSuccess && !session.data });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ParticipantSignupInput>({
    resolver: zodResolver(participantSignupSchema),
    defaultValues: { fullName: '', email: '', password: '', healthCheckId },
  });
  const { register, handleSubmit, formState, setError } = form;
  const errors = formState.errors;

  if (session.isPending) return <FullPageSpinner />;
  if (session.data) return <Navigate to={`/join/${healthCheckId}`} replace />;
  if (info.isPending) return <FullPageSpinner label="Loading health check..." />;
  if (info.isError) {
    const notFound =
      info.error instanceof ApiError && (info.error.status === 404 || info.error.status === 400);
    return (
      <Navigate
        to="/error"
        replace
        state={{ message: notFound ? 'Health check not found' : info.error.message }}
      />
    );
  }

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await signUpParticipant({ ...values, healthCheckId });
      setSentTo(values.email);
    } catch (error) {
      if (error instanceof ApiError && error.fields) {
        for (const [field, message] of Object.entries(error.fields)) {
          if (field === 'fullName' || field === 'email' || field === 'password') setError(field, { message });
        }
      }
      // The server answers the same whether or not the address has an account (its owner is told by e-mail),
      // so there is no "account exists" case here: only invalid fields, too many attempts or a failure.
      if (!(error instanceof ApiError && error.fields)) {
        setFailure(
          error instanceof ApiError && error.status < 500
            ? error.message
            : AUTH_MESSAGES.verificationSendFailed,
        );
      }
    }
  });

  const loginLink = (
    <Link
      to="/login"
      state={{ from: `/join/${healthCheckId}` }}
      className="font-medium text-brand-700 underline"
    >
      Log in
    </Link>
  );

  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-10">
      <Logo />
      <main className="mt-6 w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <div className="flex items-center gap-3">
          <span className="flex size-10 items-center justify-center rounded-full bg-brand-100 text-brand-700">
            <ClipboardCheck className="size-5" aria-hidden="true" />
          </span>
          <div>
            <h1 className="text-2xl font-bold text-slate-900">Join Health Check</h1>
            <p className="text-sm text-slate-700">
              You are invited to <strong data-testid="health-check-title">{info.data.title}</strong>
            </p>
          </div>
        </div>

        {!info.data.acceptingParticipants && (
          <p
            role="status"
            className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          >
            This health check is no longer accepting new participants.
          </p>
        )}

        {sentTo ? (
          <div className="mt-6 space-y-4">
            <p
              role="status"
              className="rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900"
            >
              {AUTH_MESSAGES.participantSignupSuccess}
            </p>
            <p className="text-sm text-slate-700">We sent the link to {sentTo}.</p>
          </div>
        ) : (
          <form onSubmit={(event) => void onSubmit(event)} noValidate className="mt-6 space-y-4">
            {failure && (
              <div
                role="alert"
                className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900"
              >
                {failure}
              </div>
            )}
            <FormField label="Full name" error={errors.fullName?.message}>
              <Input autoComplete="name" {...register('fullName')} />
            </FormField>
            <FormField label="Email" error={errors.email?.message}>
              <Input type="email" autoComplete="email" {...register('email')} />
            </FormField>
            <FormField label="Password" hint="At least 8 characters" error={errors.password?.message}>
              <Input type="password" autoComplete="new-password" {...register('password')} />
            </FormField>
            <Button type="submit" size="lg" className="w-full" disabled={formState.isSubmitting}>
              {formState.isSubmitting ? 'Creating your account...' : 'Join Health Check'}
            </Button>
          </form>
        )}
      </main>
      <p className="mt-6 text-sm text-slate-700">Already have an account? {loginLink}</p>
    </div>
  );
}
