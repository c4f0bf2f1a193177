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
import { say, t, tRich } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { joinInfoQuery, signUpParticipant } from './api';
import { BrandMark } from '@/components/branding/branding';

/**
 * /signup/{id} and /signup/health-check/{id}: 'Join Health Check' with the check's title; full name, e-mail
 * and password. After the e-mailed verification the user is registered and lands on the check.
 */
/** A form field's message: the shared rules' (a catalogue key) in the app's language, the server's as it came. */
const said = (message: string | undefined) => (message ? say(message) : undefined);

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
  if (info.isPending) return <FullPageSpinner label={t('participation.loadingCheck')} />;
  if (info.isError) {
    const notFound =
      info.error instanceof ApiError && (info.error.status === 404 || info.error.status === 400);
    return (
      <Navigate
        to="/error"
        replace
        state={{ message: notFound ? say(HEALTH_CHECK_NOT_FOUND) : info.error.message }}
      />
    );
  }

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const { mail } = await signUpParticipant({ ...values, healthCheckId });
      // E-mail switched off on the server (MAIL_DISABLED): no link went out, and the screen says so.
      if (mail === 'off')
        setFailure(
          t('participation.signup.mailOff', {
            failed: say(AUTH_MESSAGES.verificationSendFailed),
            reason: say(MAIL_MESSAGES.off),
          }),
        );
      else setSentTo(values.email);
    } catch (error) {
      // The server answers the same whether or not the address has an account (its owner is told by e-mail),
      // so there is no "account exists" case here: only invalid fields, too many attempts or a failure.
      setFailure(
        error instanceof ApiError && error.status >= 500
          ? say(AUTH_MESSAGES.verificationSendFailed)
          : applyServerErrors(error, form, say(AUTH_MESSAGES.verificationSendFailed)),
      );
    }
  });

  const footer = tRich('participation.signup.haveAccount', {
    link: (chunks) => (
      <Link
        to="/login"
        state={{ from: `/join/${healthCheckId}` }}
        className="font-medium text-brand-700 underline"
      >
        {chunks}
      </Link>
    ),
  });

  return (
    <CardPage footer={footer}>
      <BrandMark branding={info.data.branding} className="mb-5" />
      <div className="flex items-center gap-3">
        <span className="flex size-10 items-center justify-center rounded-full bg-brand-100 text-brand-700">
          <ClipboardCheck className="size-5" aria-hidden="true" />
        </span>
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{t('participation.signup.title')}</h1>
          <p className="text-sm text-slate-700">
            {tRich('participation.signup.invited', {
              title: info.data.title,
              strong: (chunks) => <strong data-testid="health-check-title">{chunks}</strong>,
            })}
          </p>
        </div>
      </div>

      {!info.data.acceptingParticipants && (
        <Notice tone="warning" className="mt-4">
          {t('participation.signup.notAccepting')}
        </Notice>
      )}

      {sentTo ? (
        <div className="mt-6 space-y-4">
          <Notice tone="success">{say(AUTH_MESSAGES.participantSignupSuccess)}</Notice>
          <p className="text-sm text-slate-700">{t('participation.signup.sentTo', { email: sentTo })}</p>
        </div>
      ) : (
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="mt-6 space-y-4">
          {failure && <Notice tone="error">{failure}</Notice>}
          <FormField label={t('participation.signup.fullName')} error={said(errors.fullName?.message)}>
            <Input autoComplete="name" {...register('fullName')} />
          </FormField>
          <FormField label={t('common.email')} error={said(errors.email?.message)}>
            <Input type="email" autoComplete="email" {...register('email')} />
          </FormField>
          <FormField
            label={t('common.password')}
            hint={t('participation.signup.passwordHint')}
            error={said(errors.password?.message)}
          >
            <Input type="password" autoComplete="new-password" {...register('password')} />
          </FormField>
          <SubmitButton
            size="lg"
            className="w-full"
            pending={formState.isSubmitting}
            busy={t('participation.signup.creating')}
          >
            {t('participation.signup.submit')}
          </SubmitButton>
        </form>
      )}
    </CardPage>
  );
}
