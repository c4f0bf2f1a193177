import { LANGUAGE_NAMES, LANGUAGES, type Language } from '@pulsecheck/shared/i18n/languages';
import type { AccountLanguage, OrganizationLanguage } from '@pulsecheck/shared/i18n/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { SubmitButton } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { Select } from '@/components/ui/select';
import { LoadFailed } from '@/components/ui/state-card';
import { toast } from '@/components/ui/toaster';
import { apiGet, apiPut } from '@/lib/api-client';
import { saveAccountLanguage } from '@/components/language-menu';
import { errorMessage } from '@/lib/forms';
import { changeLanguage, t } from '@/lib/i18n';

/** '' in the account's menu: no choice of their own, the browser's language then. */
const FOLLOW_BROWSER = '';

function LanguageForm({
  title,
  description,
  value,
  options,
  pending,
  onSave,
}: {
  title: string;
  description: string;
  value: string;
  options: { value: string; label: string; lang?: string }[];
  pending: boolean;
  onSave: (value: string) => void;
}) {
  const id = useId();
  const [chosen, setChosen] = useState(value);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(chosen);
  };
  return (
    <SectionCard title={title} description={description} descriptionId={`${id}-description`}>
      <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex grow flex-col gap-1.5">
          <label htmlFor={id} className="text-sm font-medium text-slate-900">
            {t('language.label')}
          </label>
          <Select
            id={id}
            value={chosen}
            aria-describedby={`${id}-description`}
            onChange={(event) => setChosen(event.target.value)}
          >
            {options.map((option) => (
              // A language named in itself is not translated.
              <option
                key={option.value}
                value={option.value}
                lang={option.lang}
                translate={option.lang ? 'no' : undefined}
              >
                {option.label}
              </option>
            ))}
          </Select>
        </div>
        <SubmitButton pending={pending} busy={t('common.saving')}>
          {t('common.save')}
        </SubmitButton>
      </form>
    </SectionCard>
  );
}

const languageOptions = () =>
  LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language], lang: language }));

/** Account settings → 'Language': the person's own, kept with their account (screens and e-mails follow it). */
export function AccountLanguageCard() {
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: ['account-language'],
    queryFn: () => apiGet<AccountLanguage>('/account/language'),
  });
  const save = useMutation({
    mutationFn: (language: Language | null) => saveAccountLanguage(queryClient, language),
    onSuccess: async ({ language }) => {
      if (language) await changeLanguage(language);
      toast.success(t('languageSettings.saved'));
    },
    onError: (error) => toast.error(errorMessage(error, t('languageSettings.saveFailed'))),
  });
  if (current.isError)
    return <LoadFailed title={t('languageSettings.loadFailed')} onRetry={() => void current.refetch()} />;
  if (!current.data) return null;
  return (
    <LanguageForm
      title={t('language.label')}
      description={t('languageSettings.accountDescription')}
      value={current.data.language ?? FOLLOW_BROWSER}
      options={[{ value: FOLLOW_BROWSER, label: t('languageSettings.followBrowser') }, ...languageOptions()]}
      pending={save.isPending}
      onSave={(value) => save.mutate(value === FOLLOW_BROWSER ? null : (value as Language))}
    />
  );
}

/** Organisation settings → 'Default language': e-mails to people who chose none are written in it. */
export function OrganizationLanguageCard() {
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: ['organization-language'],
    queryFn: () => apiGet<OrganizationLanguage>('/organization/language'),
  });
  const save = useMutation({
    mutationFn: (defaultLanguage: Language) =>
      apiPut<OrganizationLanguage>('/organization/language', { defaultLanguage }),
    onSuccess: (saved) => {
      queryClient.setQueryData(['organization-language'], saved);
      toast.success(t('languageSettings.saved'));
    },
    onError: (error) => toast.error(errorMessage(error, t('languageSettings.saveFailed'))),
  });
  if (current.isError)
    return <LoadFailed title={t('languageSettings.loadFailed')} onRetry={() => void current.refetch()} />;
  if (!current.data) return null;
  return (
    <LanguageForm
      title={t('languageSettings.organizationTitle')}
      description={t('languageSettings.organizationDescription')}
      value={current.data.defaultLanguage}
      options={languageOptions()}
      pending={save.isPending}
      onSave={(value) => save.mutate(value as Language)}
    />
  );
}
