import type { AccountLanguage } from '@pulsecheck/shared/i18n/schemas';
import {
  isPseudoLocale,
  LANGUAGE_NAMES,
  LANGUAGES,
  type Language,
  type Locale,
} from '@pulsecheck/shared/i18n/languages';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { apiPut } from '@/lib/api-client';
import { changeLanguage, currentLocale, t, useLocale } from '@/lib/i18n';
import { type CurrentUser, sessionQueryKey, useSession } from '@/lib/session';
import { cn } from '@/lib/cn';

/**
 * Keeps the signed-in person's language with their account, and in what the app holds of it (the session, which
 * `FollowAccountLanguage` watches, and the Language card's query).
 */
export async function saveAccountLanguage(queryClient: QueryClient, language: Language | null) {
  const saved = await apiPut<AccountLanguage>('/account/language', { language });
  queryClient.setQueryData(['account-language'], saved);
  queryClient.setQueryData<CurrentUser | null>(sessionQueryKey, (user) => user && { ...user, language });
  return saved;
}

/**
 * The language menu of the landing, sign-in, sign-up and participant screens: each language in its own name. A
 * signed-in person's choice is kept with their account (their e-mails follow it too); a visitor's in a cookie.
 */
/** A language as a crowded header shows it, within 360 px: its code ('DE', 'PT'). */
const shortName = (locale: Locale) =>
  locale === 'pt-BR' ? 'PT' : (locale.split('-').pop() ?? locale).toUpperCase();
/** Its accessible name there: the code people see, then its own name ('DE Deutsch'). */
const spokenName = (locale: Locale) => `${shortName(locale)} ${LANGUAGE_NAMES[locale]}`;

export function LanguageMenu({ className, compact = false }: { className?: string; compact?: boolean }) {
  const id = useId();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const choose = async (language: Language) => {
    await changeLanguage(language);
    if (queryClient.getQueryData<CurrentUser | null>(sessionQueryKey))
      await saveAccountLanguage(queryClient, language);
  };
  return (
    <div className={cn('flex items-center gap-2 text-sm', className)}>
      {/* In a crowded header the label is for screen readers only, and the menu shows each language's code.
          Each language is named in itself (or by its code), never translated. */}
      <label htmlFor={id} className={compact ? 'sr-only' : 'text-slate-700'}>
        {t('language.label')}
      </label>
      <select
        id={id}
        value={locale}
        onChange={(event) => void choose(event.target.value as Language)}
        className="h-9 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:border-brand-600"
      >
        {(LANGUAGES as readonly string[]).includes(locale) ? null : (
          <option value={locale} translate="no" aria-label={compact ? spokenName(locale) : undefined}>
            {compact ? shortName(locale) : LANGUAGE_NAMES[locale]}
          </option>
        )}
        {LANGUAGES.map((language) => (
          <option
            key={language}
            value={language}
            lang={language}
            translate="no"
            aria-label={compact ? spokenName(language) : undefined}
          >
            {compact ? shortName(language) : LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Follows the signed-in person's stored language: on every device they sign in on, the app switches to it
 * (their choice wins over the browser's).
 */
export function FollowAccountLanguage() {
  const session = useSession();
  const language = session.data?.language;
  useEffect(() => {
    // A pseudo-locale (a developer's check, outside production) is kept over the account's language.
    if (language && language !== currentLocale() && !isPseudoLocale(currentLocale()))
      void changeLanguage(language);
  }, [language]);
  return null;
}
