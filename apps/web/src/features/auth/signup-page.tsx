import type { AdminSignupInput } from '@pulsecheck/shared/auth/schemas';
import { AUTH_MESSAGES, COMPANY_SIZES } from '@pulsecheck/shared/auth/messages';
import { MAIL_MESSAGES, type MailState } from '@pulsecheck/shared/mail/delivery';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, Navigate } from 'react-router';
import { Button, SubmitButton } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { Notice } from '@/components/ui/notice';
import { FullPageSpinner } from '@/components/ui/spinner';
import { applyServerErrors } from '@/lib/forms';
import { lazyResolver } from '@/lib/lazy-resolver';
import { useSession } from '@/lib/session';
import { signUpAdmin } from './api';
import { AuthShell } from './auth-shell';
import { say, t, tRich } from '@/lib/i18n';

// The form validates with the shared schema, whose code (zod) loads when the form gets focus or is submitted.
const signupValidation = lazyResolver<AdminSignupInput>(async () => {
  const [{ zodResolver }, { adminSignupSchema }] = await Promise.all([
    import('@hookform/resolvers/zod'),
    import('@pulsecheck/shared/auth/schemas'),
  ]);
  return zodResolver(adminSignupSchema);
});

export function SignupPage() {
  const session = useSession();
  const [done, setDone] = useState<{ email: string; mail: MailState } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<AdminSignupInput>({
    resolver: signupValidation.resolver,
    defaultValues: {
      fullName: '',
      email: '',
      password: '',
      confirmPassword: '',
      companyName: '',
      companySize: '',
      role: '',
      acceptTerms: false,
    },
  });
  const { register, handleSubmit, formState, control } = form;
  const errors = formState.errors;

  if (session.isPending) return <FullPageSpinner />;
  if (session.data) return <Navigate to={session.data.home} replace />;

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const { mail } = await signUpAdmin(values);
      setDone({ email: values.email, mail });
    } catch (error) {
      setFailure(applyServerErrors(error, form, AUTH_MESSAGES.signupFailed));
    }
  });

  // E-mail switched off on the server (MAIL_DISABLED): no link went out, and the screen says so.
  if (done?.mail === 'off') {
    return (
      <AuthShell
        title={t('auth.emailNotSentTitle')}
        subtitle={t('auth.verificationNotSentTo', { email: done.email })}
      >
        <Notice tone="error">{say(AUTH_MESSAGES.verificationNotSent)}</Notice>
        <p className="mt-3 text-sm text-slate-700">{say(MAIL_MESSAGES.off)}</p>
        <Button variant="secondary" className="mt-6 w-full" asChild>
          <Link to="/login">{t('auth.backToLogin')}</Link>
        </Button>
      </AuthShell>
    );
  }
  if (done) {
    return (
      <AuthShell
        title={t('auth.checkEmailTitle')}
        subtitle={t('auth.verificationSentTo', { email: done.email })}
      >
        <Notice tone="success">{say(AUTH_MESSAGES.signupSuccess)}</Notice>
        <Button variant="secondary" className="mt-6 w-full" asChild>
          <Link to="/login">{t('auth.backToLogin')}</Link>
        </Button>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title={t('auth.signupTitle')}
      subtitle={t('auth.signupSubtitle')}
      footer={tRich('auth.signupFooter', {
        link: (chunks) => (
          <Link to="/login" className="font-medium text-brand-700 underline">
            {chunks}
          </Link>
        ),
      })}
    >
      <form onSubmit={onSubmit} onFocus={signupValidation.preload} noValidate className="space-y-6">
        {failure && <Notice tone="error">{say(failure)}</Notice>}
        <fieldset className="space-y-4">
          <legend className="mb-2 text-sm font-semibold tracking-wide text-slate-500 uppercase">
            {t('auth.personalInformation')}
          </legend>
          <FormField label={t('auth.fullName')} error={errors.fullName?.message}>
            <Input autoComplete="name" {...register('fullName')} />
          </FormField>
          <FormField label={t('auth.workEmail')} error={errors.email?.message}>
            <Input type="email" autoComplete="email" {...register('email')} />
          </FormField>
          <FormField label={t('auth.yourRole')} hint={t('auth.roleHint')} error={errors.role?.message}>
            <Input autoComplete="organization-title" {...register('role')} />
          </FormField>
        </fieldset>
        <fieldset className="space-y-4">
          <legend className="mb-2 text-sm font-semibold tracking-wide text-slate-500 uppercase">
            {t('auth.security')}
          </legend>
          <FormField
            label={t('common.password')}
            hint={t('auth.passwordHint')}
            error={errors.password?.message}
          >
            <Input type="password" autoComplete="new-password" {...register('password')} />
          </FormField>
          <FormField label={t('auth.confirmPassword')} error={errors.confirmPassword?.message}>
            <Input type="password" autoComplete="new-password" {...register('confirmPassword')} />
          </FormField>
        </fieldset>
        <fieldset className="space-y-4">
          <legend className="mb-2 text-sm font-semibold tracking-wide text-slate-500 uppercase">
            {t('auth.companyDetails')}
          </legend>
          <FormField label={t('auth.companyName')} error={errors.companyName?.message}>
            <Input autoComplete="organization" {...register('companyName')} />
          </FormField>
          <FormField label={t('auth.companySize')} error={errors.companySize?.message}>
            <Select {...register('companySize')}>
              <option value="">{t('auth.selectCompanySize')}</option>
              {COMPANY_SIZES.map((size) => (
                <option key={size} value={size}>
                  {t('auth.companySizeOption', { size })}
                </option>
              ))}
            </Select>
          </FormField>
        </fieldset>
        <div>
          <div className="flex items-start gap-3">
            <Controller
              control={control}
              name="acceptTerms"
              render={({ field }) => (
                <Checkbox
                  id="accept-terms"
                  className="mt-0.5"
                  checked={field.value === true}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                  onBlur={field.onBlur}
                  aria-invalid={errors.acceptTerms ? true : undefined}
                  aria-describedby={errors.acceptTerms ? 'accept-terms-error' : undefined}
                />
              )}
            />
            <Label htmlFor="accept-terms" className="font-normal text-slate-700">
              {tRich('auth.acceptTerms', {
                terms: (chunks) => (
                  <Link to="/terms" target="_blank" className="font-medium text-brand-700 underline">
                    {chunks}
                  </Link>
                ),
                privacy: (chunks) => (
                  <Link to="/privacy" target="_blank" className="font-medium text-brand-700 underline">
                    {chunks}
                  </Link>
                ),
              })}
            </Label>
          </div>
          {errors.acceptTerms && (
            <p id="accept-terms-error" role="alert" className="mt-1.5 text-sm text-red-700">
              {say(errors.acceptTerms.message ?? '')}
            </p>
          )}
        </div>
        <SubmitButton
          className="w-full"
          size="lg"
          pending={formState.isSubmitting}
          busy={t('auth.creatingWorkspace')}
        >
          {t('auth.createWorkspace')}
        </SubmitButton>
      </form>
    </AuthShell>
  );
}
