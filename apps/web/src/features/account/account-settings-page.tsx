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
  if (profile.isPending) return <Spinner label="Loading profile..." className="py-12" />;
  if (profile.isError) {
    return <LoadFailed title={ACCOUNT_MESSAGES.loadFailed} onRetry={() => void profile.refetch()} />;
  }
  return (
    <div className="space-y-6">
      <ProfileForm profile={profile.data.profile} />
      <YourDataCard />
      <DeleteAccountCard />
    </div>
  );
}

const profileFormSchema = z.object({
  fullName: updateProfileSchema.shape.fullName,
  role: z.string().trim().max(80, 'Role must be at most 80 characters'),
  department: z.string().trim().max(80, 'Team/Department must be at most 80 characters'),
  bio: z.string().trim().max(1000, 'Bio must be at most 1000 characters'),
});
type ProfileForm = z.input<typeof profileFormSchema>;

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
      toast.success(ACCOUNT_MESSAGES.saved, { duration: TOAST.save });
      setSaved(true);
      setTimeout(() => setSaved(false), 3000);
    } catch (error) {
      applyServerErrors(error, form, ACCOUNT_MESSAGES.saveFailed);
      toast.error(ACCOUNT_MESSAGES.saveFailed, { description: errorMessage(error, '') || undefined });
    }
  });
  return (
    <SectionCard
      title="Profile"
      description="How your team sees you in Pulsecheck."
      contentClassName="space-y-6"
    >
      <PhotoField profile={profile} />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <FormField label="Full Name" error={formState.errors.fullName?.message}>
          <Input autoComplete="name" {...register('fullName')} />
        </FormField>
        <FormField label="Email" hint="Your sign-in address cannot be changed here.">
          <Input type="email" value={profile.email} readOnly className="bg-slate-50" />
        </FormField>
        <FormField label="Role" error={formState.errors.role?.message} hint="Your job title">
          <Input autoComplete="organization-title" {...register('role')} />
        </FormField>
        <FormField label="Team/Department" error={formState.errors.department?.message}>
          <Input {...register('department')} />
        </FormField>
        <FormField label="Bio" error={formState.errors.bio?.message}>
          <Textarea rows={4} {...register('bio')} />
        </FormField>
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton pending={formState.isSubmitting} busy="Saving...">
            Save Changes
          </SubmitButton>
          <p role="status" className="text-sm text-green-800">
            {saved ? ACCOUNT_MESSAGES.saved : ''}
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
      toast.error(ACCOUNT_MESSAGES.photoFailed, { description: reason, duration: TOAST.error });
    // Checked here to save a wasted upload; the server checks the bytes again.
    if (file.size > AVATAR_MAX_BYTES) fail(ACCOUNT_MESSAGES.photoTooLarge);
    else if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) fail(ACCOUNT_MESSAGES.photoType);
    else {
      try {
        await upload.mutateAsync(file);
        toast.success(ACCOUNT_MESSAGES.photoUpdated, { duration: TOAST.save });
      } catch (error) {
        fail(errorMessage(error, ACCOUNT_MESSAGES.photoFailed));
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
          alt="Your profile photo"
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
          {upload.isPending ? 'Uploading...' : 'Change photo'}
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
        <p className="mt-1 text-xs text-slate-600">PNG, JPEG, WebP or GIF, up to 2 MB.</p>
      </div>
    </div>
  );
}
