import { HEALTH_CHECK_NOT_FOUND } from '@pulsecheck/shared/health-checks/rules';
import { zodResolver } from '@hookform/resolvers/zod';
import { participantSignupSchema, type ParticipantSignupInput } from '@pulsecheck/shared/auth/schemas';
import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import { MAIL_MESSAGES } from '@pulsecheck/shared/mail/delivery';
import { useQuery } from '@tanstack/react-query';
import { ClipboardCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useParams } from 'react-router';
import { SubmitButton } from '@/components/ui/button';
import { CardPage } from '@/components/ui/card-page';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { FullPageSpinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { applyServerErrors } from '@/lib/forms';
import { useSession } from '@/lib/session';
import { joinInfoQuery, signUpParticipant } from './api';
import { BrandMark } from '@/components/branding/branding';

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
  const { register, handleSubmit, formState } = form;
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
        state={{ message: notFound ? HEALTH_CHECK_NOT_FOUND : info.error.message }}
      />
    );
  }

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const { mail } = await signUpParticipant({ ...values, healthCheckId });
      // E-mail switched off on the server (MAIL_DISABLED): no link went out, and the screen says so.
      if (mail === 'off') setFailure(`${AUTH_MESSAGES.verificationSendFailed} ${MAIL_MESSAGES.off}`);
      else setSentTo(values.email);
    } catch (error) {
      // The server answers the same whether or not the address has an account (its owner is told by e-mail),
      // so there is no "account exists" case here: only invalid fields, too many attempts or a failure.
      setFailure(
        error instanceof ApiError && error.status >= 500
          ? AUTH_MESSAGES.verificationSendFailed
          : applyServerErrors(error, form, AUTH_MESSAGES.verificationSendFailed),
      );
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
    <CardPage footer={<>Already have an account? {loginLink}</>}>
      <BrandMark branding={info.data.branding} className="mb-5" />
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
        <Notice tone="warning" className="mt-4">
          This health check is no longer accepting new participants.
        </Notice>
      )}

      {sentTo ? (
        <div className="mt-6 space-y-4">
          <Notice tone="success">{AUTH_MESSAGES.participantSignupSuccess}</Notice>
          <p className="text-sm text-slate-700">We sent the link to {sentTo}.</p>
        </div>
      ) : (
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="mt-6 space-y-4">
          {failure && <Notice tone="error">{failure}</Notice>}
          <FormField label="Full name" error={errors.fullName?.message}>
            <Input autoComplete="name" {...register('fullName')} />
          </FormField>
          <FormField label="Email" error={errors.email?.message}>
            <Input type="email" autoComplete="email" {...register('email')} />
          </FormField>
          <FormField label="Password" hint="At least 8 characters" error={errors.password?.message}>
            <Input type="password" autoComplete="new-password" {...register('password')} />
          </FormField>
          <SubmitButton
            size="lg"
            className="w-full"
            pending={formState.isSubmitting}
            busy="Creating your account..."
          >
            Join Health Check
          </SubmitButton>
        </form>
      )}
    </CardPage>
  );
}
