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
  isPseudoLocale,
  LANGUAGE_COOKIE,
  LANGUAGES,
  type Locale,
  negotiateLanguage,
  textDirection,
} from '@pulsecheck/shared/i18n/languages';
import {
  ENTRY_PART,
  matchRoutePattern,
  MESSAGE_PARTS_ELEMENT,
  type MessageParts,
  messagePartUrl,
} from '@pulsecheck/shared/i18n/message-parts';
import {
  type Messages,
  type MessageValues,
  type RichValues,
  Translator,
} from '@pulsecheck/shared/i18n/translate';

/**
 * The development server's and the tests' catalogues: each language whole, a module of its own
 * (apps/web/vite-messages.ts). The build drops them: a built page loads its parts instead.
 */
const WHOLE_CATALOGUES: Record<Locale, () => Promise<{ default: Messages }>> | null = import.meta.env.DEV
  ? {
      en: () => import('virtual:messages/en'),
      de: () => import('virtual:messages/de'),
      fr: () => import('virtual:messages/fr'),
      es: () => import('virtual:messages/es'),
      'pt-BR': () => import('virtual:messages/pt-BR'),
      'en-XA': () => import('virtual:messages/en-XA'),
      'ar-XB': () => import('virtual:messages/ar-XB'),
    }
  : null;

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
 * The map of the built catalogue's parts, which the server writes in the page (decision 0027); none from the
 * development server, which serves each language whole.
 */
function readMessageParts(): MessageParts | null {
  const text = document.getElementById(MESSAGE_PARTS_ELEMENT)?.textContent;
  return text ? (JSON.parse(text) as MessageParts) : null;
}
const messageParts = readMessageParts();

/** The parts loaded so far (`entry` and those of the pages opened): a change of language loads them again. */
const loadedParts = new Set<string>();

async function fetchPart(parts: MessageParts, locale: Locale, name: string): Promise<Messages> {
  const response = await fetch(messagePartUrl(parts, locale, name));
  if (!response.ok) throw new Error(`The words of this page could not be loaded (${response.status})`);
  return (await response.json()) as Messages;
}

/** `names`' parts in `locale`, merged; or, where the language comes whole, all of it. */
async function loadMessages(locale: Locale, names: Iterable<string>): Promise<Messages> {
  if (!messageParts) {
    if (!WHOLE_CATALOGUES) throw new Error('This page was served without the map of its words');
    return (await WHOLE_CATALOGUES[locale]()).default;
  }
  const parts = messageParts;
  const loaded = await Promise.all([...new Set(names)].map((name) => fetchPart(parts, locale, name)));
  return Object.assign({}, ...loaded) as Messages;
}

/** The name of the part of the page at `pathname`, if the build made one for it. */
const partOf = (pathname: string): string | undefined => {
  if (!messageParts) return undefined;
  const pattern = matchRoutePattern(Object.keys(messageParts.routes), pathname);
  return pattern === null ? undefined : messageParts.routes[pattern];
};

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

/**
 * Loads the starting language's words for the page being opened (the server preloads both parts with the
 * entry); main.tsx renders once they are in.
 */
export async function startLanguage(): Promise<void> {
  const locale = startingLocale();
  const names = [ENTRY_PART, partOf(window.location.pathname)].filter((name) => name !== undefined);
  applyMessages(locale, await loadMessages(locale, names));
  for (const name of names) loadedParts.add(name);
}

/** Loads the part `name` into the app's language, once per language. */
async function loadPart(name: string | undefined): Promise<void> {
  if (name === undefined || loadedParts.has(name)) return;
  const locale = translator().locale;
  const messages = await loadMessages(locale, [name]);
  // The language changed while it loaded: load it in the new one instead.
  if (translator().locale !== locale) return loadPart(name);
  translator().add(messages);
  loadedParts.add(name);
}

/**
 * Loads the words of the page at `pathname` before it shows (the router's root loader: router.tsx), once per
 * language; a page loads its code and its words side by side.
 */
export const loadPageMessages = (pathname: string): Promise<void> => loadPart(partOf(pathname));

/** Loads the words of a module loaded on demand outside the screens (route-modules.ts `ON_DEMAND_MODULES`). */
export const loadModuleMessages = (module: string): Promise<void> => loadPart(messageParts?.modules[module]);

/**
 * Switches the app to `locale`: loads its catalogue (the parts loaded so far), keeps the choice in a cookie for a
 * year (the server writes the next page in it), and renders the app again in it.
 */
export async function changeLanguage(locale: Locale): Promise<void> {
  if (active?.locale === locale) return;
  const messages = await loadMessages(locale, loadedParts);
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
export const languageName = (language: Language): string => translator().languageName(language);

/** Dates, numbers, percentages and lists in the app's language (Intl). */
export const formats = (): Translator => translator();

/**
 * A text that may be a catalogue key: the shared rules' messages are keys ('auth.emailRequired'), or keys with
 * their values (`messageWith`, a zod issue's 'The audience has 2 members…'), said in the app's language; a message
 * the server sent is already in it and shown as it is.
 */
export const say = (textOrKey: string): string => translator().say(textOrKey);
