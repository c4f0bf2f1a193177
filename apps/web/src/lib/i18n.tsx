/**
 * The language the app speaks (decision 0027). One language at a time: its catalogue is loaded before the first
 * render (no English flashes before German), and `t()` reads from it anywhere, in a component or in a toast's
 * callback. Changing the language loads the new catalogue, then renders the app again from the top (app.tsx).
 * Never call `t()` at a module's top level: the catalogue is not loaded yet when modules load.
 */
import { Fragment, type ReactNode, useSyncExternalStore } from 'react';
import {
  DEFAULT_LANGUAGE,
  isLanguage,
  type Language,
  languageNameIn,
  isPseudoLocale,
  LANGUAGE_COOKIE,
  LANGUAGES,
  type Locale,
  negotiateLanguage,
  textDirection,
} from '@pulsecheck/shared/i18n/languages';
import {
  type Messages,
  type MessageValues,
  type RichValues,
  Translator,
} from '@pulsecheck/shared/i18n/translate';

/** Each language's catalogue, a file of its own loaded on demand (apps/web/vite-messages.ts). */
const CATALOGUES: Record<Locale, () => Promise<{ default: Messages }>> = {
  en: () => import('virtual:messages/en'),
  de: () => import('virtual:messages/de'),
  fr: () => import('virtual:messages/fr'),
  es: () => import('virtual:messages/es'),
  'pt-BR': () => import('virtual:messages/pt-BR'),
  'en-XA': () => import('virtual:messages/en-XA'),
  'ar-XB': () => import('virtual:messages/ar-XB'),
};

let active: Translator | undefined;
const listeners = new Set<() => void>();

function translator(): Translator {
  if (!active) throw new Error('A message was asked for before its catalogue was loaded');
  return active;
}

/** Makes `messages` the app's language at once (the tests' English, and every change once loaded). */
export function applyMessages(locale: Locale, messages: Messages) {
  active = new Translator(locale, messages, (key) => console.error(`Missing message: ${key}`));
  document.documentElement.lang = locale;
  document.documentElement.dir = textDirection(locale);
  for (const listener of listeners) listener();
}

/**
 * The language to start in: what the server wrote in the page's `lang` (the visitor's cookie, else the
 * browser's `Accept-Language`: apps/server/src/lib/static-files.ts), else, served without it (Vite's dev
 * server), the cookie or the browser's languages.
 */
function startingLocale(): Locale {
  const root = document.documentElement;
  const written = root.dataset.language;
  if (written && (isLanguage(written) || isPseudoLocale(written))) return written;
  const cookie = new RegExp(`(?:^|; )${LANGUAGE_COOKIE}=([^;]*)`).exec(document.cookie)?.[1];
  if (isLanguage(cookie)) return cookie;
  return negotiateLanguage(navigator.languages, LANGUAGES) ?? DEFAULT_LANGUAGE;
}

/** Loads the starting language's catalogue; main.tsx renders once it is in. */
export async function startLanguage(): Promise<void> {
  const locale = startingLocale();
  applyMessages(locale, (await CATALOGUES[locale]()).default);
}

/**
 * Switches the app to `locale`: loads its catalogue, keeps the choice in a cookie for a year (the server writes
 * the next page in it), and renders the app again in it.
 */
export async function changeLanguage(locale: Locale): Promise<void> {
  if (active?.locale === locale) return;
  const { default: messages } = await CATALOGUES[locale]();
  document.cookie = `${LANGUAGE_COOKIE}=${locale}; path=/; max-age=31536000; samesite=lax`;
  applyMessages(locale, messages);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The app's language, for what must render again when it changes (the app's root). */
export const useLocale = (): Locale => useSyncExternalStore(subscribe, () => translator().locale);

/** The app's language now. */
export const currentLocale = (): Locale => translator().locale;

/** The message `key` in the app's language: `t('common.save')`, `t('common.minutesAgo', { minutes })`. */
export const t = (key: string, values?: MessageValues): string => translator().t(key, values);

/**
 * A message with tags, each rendered by its function:
 * `tRich('<area>.<key>', { link: (text) => <Link to="/terms">{text}</Link> })`.
 */
export function tRich(key: string, values: RichValues<ReactNode>): ReactNode {
  const parts = translator().rich<ReactNode>(key, values);
  return Array.isArray(parts) ? parts.map((part, i) => <Fragment key={i}>{part}</Fragment>) : parts;
}

/** A language's name in the app's language ('German' to an English reader, 'allemand' to a French one), by Intl. */
export const languageName = (language: Language): string => languageNameIn(language, currentLocale());

/** Dates, numbers, percentages and lists in the app's language (Intl). */
export const formats = (): Translator => translator();

/**
 * A text that may be a catalogue key: the shared rules' messages are keys ('auth.emailRequired'), or keys with
 * their values (`messageWith`, a zod issue's 'The audience has 2 members…'), said in the app's language; a message
 * the server sent is already in it and shown as it is.
 */
export const say = (textOrKey: string): string => translator().say(textOrKey);
