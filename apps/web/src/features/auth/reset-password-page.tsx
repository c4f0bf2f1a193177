import { zodResolver } from '@hookform/resolvers/zod';
import { resetPasswordSchema } from '@pulsecheck/shared/auth/schemas';
import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, SubmitButton } from '@/components/ui/button';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { applyServerErrors } from '@/lib/forms';
import { resetPassword } from './api';
import { AuthShell } from './auth-shell';
import { say, t } from '@/lib/i18n';

type ResetForm = { token: string; password: string; confirmPassword: string; removePasskeys?: boolean };

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const linkBroken = !token || params.has('error');
  const [failure, setFailure] = useState<string | null>(linkBroken ? AUTH_MESSAGES.resetLinkInvalid : null);
  const [done, setDone] = useState(false);
  const form = useForm<ResetForm>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { token, password: '', confirmPassword: '', removePasskeys: false },
  });
  const { register, handleSubmit, formState, control } = form;

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => void navigate('/login', { replace: true }), 3000);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await resetPassword(values);
      setDone(true);
    } catch (error) {
      setFailure(applyServerErrors(error, form, AUTH_MESSAGES.resetLinkInvalid));
    }
  });

  if (done) {
    return (
      <AuthShell title={t('auth.passwordUpdatedTitle')}>
        <Notice tone="success">{say(AUTH_MESSAGES.passwordUpdated)}</Notice>
      </AuthShell>
    );
  }

  return (
    <AuthShell title={t('auth.chooseNewPassword')}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {failure && <Notice tone="error">{say(failure)}</Notice>}
        {(linkBroken || formState.errors.token) && (
          <Button variant="secondary" className="w-full" asChild>
            <Link to="/login" state={{ message: 'forgot' }}>
              {t('auth.requestNewLink')}
            </Link>
          </Button>
        )}
        {!linkBroken && (
          <>
            <FormField
              label={t('auth.newPassword')}
              hint={t('auth.passwordHint')}
              error={formState.errors.password?.message}
            >
              <Input type="password" autoComplete="new-password" {...register('password')} />
            </FormField>
            <FormField label={t('auth.confirmNewPassword')} error={formState.errors.confirmPassword?.message}>
              <Input type="password" autoComplete="new-password" {...register('confirmPassword')} />
            </FormField>
            <Controller
              control={control}
              name="removePasskeys"
              render={({ field }) => (
                <CheckboxField
                  label={say(SECURITY_MESSAGES.alsoRemovePasskeys)}
                  checked={field.value === true}
                  onCheckedChange={field.onChange}
                  onBlur={field.onBlur}
                />
              )}
            />
            <SubmitButton className="w-full" pending={formState.isSubmitting} busy={t('auth.updating')}>
              {t('auth.updatePassword')}
            </SubmitButton>
          </>
        )}
      </form>
    </AuthShell>
  );
}
