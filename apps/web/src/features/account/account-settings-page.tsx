import { AccountLanguageCard } from '@/components/language-settings';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ACCOUNT_MESSAGES,
  AVATAR_MAX_BYTES,
  AVATAR_TYPES,
  updateProfileSchema,
  type Profile,
} from '@pulsecheck/shared/account/schemas';
import { Camera } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { SubmitButton } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast, TOAST } from '@/components/ui/toaster';
import { applyServerErrors, errorMessage } from '@/lib/forms';
import { say, t } from '@/lib/i18n';
import { useProfile, useSaveProfile, useUploadPhoto } from './api';
import { PasswordSection } from './password-section';
import { SettingsFrame, type Section } from './settings-frame';
import { YourDataCard } from './your-data-card';
import { DeleteAccountCard } from './delete-account-card';
import { LoadFailed } from '@/components/ui/state-card';

export function AccountSettingsPage() {
  const [params] = useSearchParams();
  const section: Section = params.get('tab') === 'password' ? 'password' : 'profile';
  return (
    <SettingsFrame section={section}>
      {section === 'password' ? <PasswordSection /> : <ProfileSection />}
    </SettingsFrame>
  );
}

function ProfileSection() {
  const profile = useProfile();
  if (profile.isPending) return <Spinner label={t('account.loadingProfile')} className="py-12" />;
  if (profile.isError) {
    return <LoadFailed title={say(ACCOUNT_MESSAGES.loadFailed)} onRetry={() => void profile.refetch()} />;
  }
  return (
    <div className="space-y-6">
      <ProfileForm profile={profile.data.profile} />
      <AccountLanguageCard />
      <YourDataCard />
      <DeleteAccountCard />
    </div>
  );
}

/** The form's rules; their messages are catalogue keys, said where they are shown. */
const profileFormSchema = z.object({
  fullName: updateProfileSchema.shape.fullName,
  role: z.string().trim().max(80, 'account.roleTooLong'),
  department: z.string().trim().max(80, 'account.departmentTooLong'),
  bio: z.string().trim().max(1000, 'account.bioTooLong'),
});
type ProfileForm = z.input<typeof profileFormSchema>;

/** A field's error in the app's language (the rules' messages are keys). */
const sayError = (message: string | undefined) => (message ? say(message) : undefined);

function ProfileForm({ profile }: { profile: Profile }) {
  const save = useSaveProfile();
  const [saved, setSaved] = useState(false);
  const form = useForm<ProfileForm>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: {
      fullName: profile.fullName,
      role: profile.role ?? '',
      department: profile.department ?? '',
      bio: profile.bio ?? '',
    },
  });
  const { register, handleSubmit, formState } = form;
  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({
        fullName: values.fullName,
        role: values.role ?? null,
        department: values.department ?? null,
        bio: values.bio ?? null,
      });
      toast.success(say(ACCOUNT_MESSAGES.saved), { duration: TOAST.save });
      setSaved(true);
      setTimeout(() => setSaved(false), 3000);
    } catch (error) {
      applyServerErrors(error, form, say(ACCOUNT_MESSAGES.saveFailed));
      toast.error(say(ACCOUNT_MESSAGES.saveFailed), { description: errorMessage(error, '') || undefined });
    }
  });
  return (
    <SectionCard
      title={t('account.profileTitle')}
      description={t('account.profileDescription')}
      contentClassName="space-y-6"
    >
      <PhotoField profile={profile} />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <FormField label={t('account.fullName')} error={sayError(formState.errors.fullName?.message)}>
          <Input autoComplete="name" {...register('fullName')} />
        </FormField>
        <FormField label={t('common.email')} hint={t('account.emailHint')}>
          <Input type="email" value={profile.email} readOnly className="bg-slate-50" />
        </FormField>
        <FormField
          label={t('account.role')}
          error={sayError(formState.errors.role?.message)}
          hint={t('account.roleHint')}
        >
          <Input autoComplete="organization-title" {...register('role')} />
        </FormField>
        <FormField label={t('account.department')} error={sayError(formState.errors.department?.message)}>
          <Input {...register('department')} />
        </FormField>
        <FormField label={t('account.bio')} error={sayError(formState.errors.bio?.message)}>
          <Textarea rows={4} {...register('bio')} />
        </FormField>
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton pending={formState.isSubmitting} busy={t('account.saving')}>
            {t('account.saveChanges')}
          </SubmitButton>
          <p role="status" className="text-sm text-green-800">
            {saved ? say(ACCOUNT_MESSAGES.saved) : ''}
          </p>
        </div>
      </form>
    </SectionCard>
  );
}

function PhotoField({ profile }: { profile: Profile }) {
  const upload = useUploadPhoto();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const fail = (reason: string) =>
      toast.error(say(ACCOUNT_MESSAGES.photoFailed), { description: reason, duration: TOAST.error });
    // Checked here to save a wasted upload; the server checks the bytes again.
    if (file.size > AVATAR_MAX_BYTES) fail(say(ACCOUNT_MESSAGES.photoTooLarge));
    else if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) fail(say(ACCOUNT_MESSAGES.photoType));
    else {
      try {
        await upload.mutateAsync(file);
        toast.success(say(ACCOUNT_MESSAGES.photoUpdated), { duration: TOAST.save });
      } catch (error) {
        fail(errorMessage(error, say(ACCOUNT_MESSAGES.photoFailed)));
      }
    }
    if (input.current) input.current.value = '';
  };
  const initials = profile.fullName
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase())
    .join('');
  return (
    <div className="flex flex-wrap items-center gap-4">
      {profile.avatarUrl ? (
        <img
          src={profile.avatarUrl}
          alt={t('account.photoAlt')}
          className="size-20 rounded-full object-cover"
          data-testid="profile-photo"
        />
      ) : (
        <span
          aria-hidden="true"
          className="flex size-20 items-center justify-center rounded-full bg-brand-100 text-xl font-semibold text-brand-800"
        >
          {initials || '?'}
        </span>
      )}
      <div>
        <label
          htmlFor={id}
          className="inline-flex h-10 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-within:outline-2 focus-within:outline-brand-600"
        >
          <Camera className="size-4" aria-hidden="true" />
          {upload.isPending ? t('account.uploading') : t('account.changePhoto')}
          <input
            ref={input}
            id={id}
            type="file"
            accept={AVATAR_TYPES.join(',')}
            className="sr-only"
            disabled={upload.isPending}
            onChange={(event) => void onFile(event.target.files?.[0])}
          />
        </label>
        <p className="mt-1 text-xs text-slate-600">{t('account.photoHint')}</p>
      </div>
    </div>
  );
}
