import { zodResolver } from '@hookform/resolvers/zod';
import {
  ACCOUNT_MESSAGES,
  changePasswordSchema,
  type ChangePasswordInput,
} from '@pulsecheck/shared/account/schemas';
import { Eye, EyeOff } from 'lucide-react';
import { useState, type ComponentProps } from 'react';
import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import { Controller, useForm } from 'react-hook-form';
import { SubmitButton } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast, TOAST } from '@/components/ui/toaster';
import { applyServerErrors, errorMessage } from '@/lib/forms';
import { say, t } from '@/lib/i18n';
import { changePassword } from './api';

/**
 * Account Settings' Password tab: change it with the current one; the other sessions and trusted devices end, and
 * on request the passkeys (a passkey added with a stolen session would outlive the new password).
 */
/** Which of the three password fields: it names the field's show/hide button. */
type PasswordKind = 'current' | 'new' | 'confirm';

function PasswordInput({
  label,
  kind,
  error,
  ...props
}: { label: string; kind: PasswordKind; error?: string | undefined } & ComponentProps<'input'>) {
  const [visible, setVisible] = useState(false);
  return (
    <FormField label={label} error={error ? say(error) : undefined}>
      <PasswordBox visible={visible} onVisibleChange={() => setVisible((v) => !v)} kind={kind} {...props} />
    </FormField>
  );
}

/** The input and its show/hide toggle; FormField wires the label to the input through `id`. */
function PasswordBox({
  visible,
  onVisibleChange,
  kind,
  id,
  ...props
}: { visible: boolean; onVisibleChange: () => void; kind: PasswordKind } & ComponentProps<'input'>) {
  return (
    <div className="relative">
      <Input id={id} type={visible ? 'text' : 'password'} className="pe-11" {...props} />
      <button
        type="button"
        onClick={onVisibleChange}
        aria-label={t(visible ? 'account.hidePassword' : 'account.showPassword', { kind })}
        aria-pressed={visible}
        className="absolute end-0 top-0 flex size-10 items-center justify-center rounded-e-lg text-slate-600 hover:text-slate-900"
      >
        {visible ? (
          <EyeOff className="size-4" aria-hidden="true" />
        ) : (
          <Eye className="size-4" aria-hidden="true" />
        )}
      </button>
    </div>
  );
}

const EMPTY: ChangePasswordInput = {
  currentPassword: '',
  newPassword: '',
  confirmPassword: '',
  removePasskeys: false,
};

export function PasswordSection() {
  const form = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: EMPTY,
  });
  const { register, handleSubmit, formState, reset, control } = form;
  const onSubmit = handleSubmit(
    async (values) => {
      try {
        await changePassword(values);
        toast.success(say(ACCOUNT_MESSAGES.passwordUpdated), { duration: TOAST.save });
        reset(EMPTY);
      } catch (error) {
        applyServerErrors(error, form, say(ACCOUNT_MESSAGES.passwordFailed));
        toast.error(errorMessage(error, say(ACCOUNT_MESSAGES.passwordFailed)));
      }
    },
    (errors) => {
      const first = errors.currentPassword ?? errors.newPassword ?? errors.confirmPassword;
      if (first?.message) toast.error(say(first.message));
    },
  );
  return (
    <SectionCard title={t('account.passwordTitle')} description={t('account.passwordDescription')}>
      <form onSubmit={onSubmit} noValidate className="max-w-md space-y-4">
        <PasswordInput
          label={t('account.currentPassword')}
          kind="current"
          autoComplete="current-password"
          error={formState.errors.currentPassword?.message}
          {...register('currentPassword')}
        />
        <PasswordInput
          label={t('account.newPassword')}
          kind="new"
          autoComplete="new-password"
          error={formState.errors.newPassword?.message}
          {...register('newPassword')}
        />
        <PasswordInput
          label={t('account.confirmPassword')}
          kind="confirm"
          autoComplete="new-password"
          error={formState.errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
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
        <SubmitButton pending={formState.isSubmitting} busy={t('account.updatingPassword')}>
          {t('account.updatePassword')}
        </SubmitButton>
      </form>
    </SectionCard>
  );
}
