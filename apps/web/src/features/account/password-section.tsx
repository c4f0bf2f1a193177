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
import { changePassword } from './api';

/**
 * Account Settings' Password tab: change it with the current one; the other sessions and trusted devices end, and
 * on request the passkeys (a passkey added with a stolen session would outlive the new password).
 */
function PasswordInput({
  label,
  error,
  ...props
}: { label: string; error?: string | undefined } & ComponentProps<'input'>) {
  const [visible, setVisible] = useState(false);
  return (
    <FormField label={label} error={error}>
      <PasswordBox visible={visible} onVisibleChange={() => setVisible((v) => !v)} label={label} {...props} />
    </FormField>
  );
}

/** The input and its show/hide toggle; FormField wires the label to the input through `id`. */
function PasswordBox({
  visible,
  onVisibleChange,
  label,
  id,
  ...props
}: { visible: boolean; onVisibleChange: () => void; label: string } & ComponentProps<'input'>) {
  return (
    <div className="relative">
      <Input id={id} type={visible ? 'text' : 'password'} className="pr-11" {...props} />
      <button
        type="button"
        onClick={onVisibleChange}
        aria-label={`${visible ? 'Hide' : 'Show'} ${label.toLowerCase()}`}
        aria-pressed={visible}
        className="absolute top-0 right-0 flex size-10 items-center justify-center rounded-r-lg text-slate-600 hover:text-slate-900"
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
        toast.success(ACCOUNT_MESSAGES.passwordUpdated, { duration: TOAST.save });
        reset(EMPTY);
      } catch (error) {
        applyServerErrors(error, form, ACCOUNT_MESSAGES.passwordFailed);
        toast.error(errorMessage(error, ACCOUNT_MESSAGES.passwordFailed));
      }
    },
    (errors) => {
      const first = errors.currentPassword ?? errors.newPassword ?? errors.confirmPassword;
      if (first?.message) toast.error(first.message);
    },
  );
  return (
    <SectionCard title="Password" description="Changing it signs you out everywhere else.">
      <form onSubmit={onSubmit} noValidate className="max-w-md space-y-4">
        <PasswordInput
          label="Current Password"
          autoComplete="current-password"
          error={formState.errors.currentPassword?.message}
          {...register('currentPassword')}
        />
        <PasswordInput
          label="New Password"
          autoComplete="new-password"
          error={formState.errors.newPassword?.message}
          {...register('newPassword')}
        />
        <PasswordInput
          label="Confirm New Password"
          autoComplete="new-password"
          error={formState.errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <Controller
          control={control}
          name="removePasskeys"
          render={({ field }) => (
            <CheckboxField
              label={SECURITY_MESSAGES.alsoRemovePasskeys}
              checked={field.value === true}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
            />
          )}
        />
        <SubmitButton pending={formState.isSubmitting} busy="Updating...">
          Update Password
        </SubmitButton>
      </form>
    </SectionCard>
  );
}
