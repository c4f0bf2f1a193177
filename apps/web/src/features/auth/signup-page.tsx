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
      <AuthShell title="Email could not be sent" subtitle={`No verification link was sent to ${done.email}.`}>
        <Notice tone="error">{AUTH_MESSAGES.verificationNotSent}</Notice>
        <p className="mt-3 text-sm text-slate-700">{MAIL_MESSAGES.off}</p>
        <Button variant="secondary" className="mt-6 w-full" asChild>
          <Link to="/login">Back to login</Link>
        </Button>
      </AuthShell>
    );
  }
  if (done) {
    return (
      <AuthShell title="Check your email" subtitle={`We sent a verification link to ${done.email}.`}>
        <Notice tone="success">{AUTH_MESSAGES.signupSuccess}</Notice>
        <Button variant="secondary" className="mt-6 w-full" asChild>
          <Link to="/login">Back to login</Link>
        </Button>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title="Create your workspace"
      subtitle="Set up Pulsecheck for your organization in a minute."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-brand-700 underline">
            Log in
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} onFocus={signupValidation.preload} noValidate className="space-y-6">
        {failure && <Notice tone="error">{failure}</Notice>}
        <fieldset className="space-y-4">
          <legend className="mb-2 text-sm font-semibold tracking-wide text-slate-500 uppercase">
            Personal Information
          </legend>
          <FormField label="Full name" error={errors.fullName?.message}>
            <Input autoComplete="name" {...register('fullName')} />
          </FormField>
          <FormField label="Work email" error={errors.email?.message}>
            <Input type="email" autoComplete="email" {...register('email')} />
          </FormField>
          <FormField label="Your role" hint="For example: Head of People, CTO" error={errors.role?.message}>
            <Input autoComplete="organization-title" {...register('role')} />
          </FormField>
        </fieldset>
        <fieldset className="space-y-4">
          <legend className="mb-2 text-sm font-semibold tracking-wide text-slate-500 uppercase">
            Security
          </legend>
          <FormField label="Password" hint="At least 8 characters" error={errors.password?.message}>
            <Input type="password" autoComplete="new-password" {...register('password')} />
          </FormField>
          <FormField label="Confirm password" error={errors.confirmPassword?.message}>
            <Input type="password" autoComplete="new-password" {...register('confirmPassword')} />
          </FormField>
        </fieldset>
        <fieldset className="space-y-4">
          <legend className="mb-2 text-sm font-semibold tracking-wide text-slate-500 uppercase">
            Company Details
          </legend>
          <FormField label="Company name" error={errors.companyName?.message}>
            <Input autoComplete="organization" {...register('companyName')} />
          </FormField>
          <FormField label="Company size" error={errors.companySize?.message}>
            <Select {...register('companySize')}>
              <option value="">Select company size</option>
              {COMPANY_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size} employees
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
              I agree to the{' '}
              <Link to="/terms" target="_blank" className="font-medium text-brand-700 underline">
                Terms of Service
              </Link>{' '}
              and{' '}
              <Link to="/privacy" target="_blank" className="font-medium text-brand-700 underline">
                Privacy Policy
              </Link>
            </Label>
          </div>
          {errors.acceptTerms && (
            <p id="accept-terms-error" role="alert" className="mt-1.5 text-sm text-red-700">
              {errors.acceptTerms.message}
            </p>
          )}
        </div>
        <SubmitButton
          className="w-full"
          size="lg"
          pending={formState.isSubmitting}
          busy="Creating your workspace..."
        >
          Create workspace
        </SubmitButton>
      </form>
    </AuthShell>
  );
}
