/**
 * The catalogue's content in the reader's language (issue 34, decision 0027). The global templates' words (the
 * 29 components, their 9 categories, descriptions and examples; the loop templates and their questions) are
 * stored as the catalogue's English text. A text that is still exactly the catalogue's is shown in the reader's
 * language; a text an admin wrote or changed is shown as written. A text sent in any of the five languages that
 * is exactly the catalogue's is stored as its English, so it keeps following each reader's language.
 */
import type { MiddlewareHandler } from 'hono';
import { LANGUAGES, PSEUDO_LOCALES, type Locale } from '@pulsecheck/shared/i18n/languages';
import { readCatalogue } from '../../../../packages/shared/messages/read.ts';
import { translateMessage } from './app-error';
import { requestLocale, translatorFor } from './i18n';

/** The shared catalogue's areas that hold content rather than the product's own words. */
const CONTENT_AREAS = ['catalogue.', 'loopCatalogue.'];

let contentKeys: string[] | undefined;
const keys = () =>
  (contentKeys ??= Object.keys(readCatalogue('shared', 'en').messages).filter((key) =>
    CONTENT_AREAS.some((area) => key.startsWith(area)),
  ));

/** Each language's content texts to their key, made once. */
const byText = new Map<Locale, Map<string, string>>();
function keysByText(locale: Locale): Map<string, string> {
  let made = byText.get(locale);
  if (!made) {
    const translator = translatorFor(locale);
    made = new Map(keys().map((key) => [translator.t(key), key]));
    byText.set(locale, made);
  }
  return made;
}

/**
 * The answers' fields that may hold catalogue content, each with the kind of catalogue text it may hold: a
 * free-text answer (`text` of an answer, not of a question) that happens to read like a scale's end label stays
 * as written.
 */
const CONTENT_FIELDS: Record<string, RegExp> = {
  title: /\.title$/,
  componentTitle: /\.title$/,
  checkTitle: /\.title$/,
  targetLabel: /\.title$/,
  description: /\.description$/,
  category: /^catalogue\.category\./,
  categories: /^catalogue\.category\./,
  examples: /\.example\d+$/,
  text: /^loopCatalogue\.\w+\.text$/,
  lowLabel: /\.lowLabel$/,
  highLabel: /\.highLabel$/,
};

/** `text` in `locale` when it is the catalogue's English text (of the kind `field` holds), else as it is. */
export function localizeContent(locale: Locale, text: string, field?: string): string {
  if (locale === 'en') return text;
  const key = keysByText('en').get(text);
  if (!key || (field && !CONTENT_FIELDS[field]?.test(key))) return text;
  return translatorFor(locale).t(key);
}

/** Whether `text` is the catalogue's English text (of the kind `field` holds): then it reads in every language. */
export function isCatalogueText(text: string, field: string): boolean {
  const key = keysByText('en').get(text);
  return Boolean(key && CONTENT_FIELDS[field]?.test(key));
}

/**
 * `text` as stored: the catalogue's English when it is the catalogue's text in any language (or pseudo-locale, so a
 * category chosen in en-XA filters as in English), else as it is.
 */
export function canonicalContent(text: string): string {
  for (const language of [...LANGUAGES, ...PSEUDO_LOCALES]) {
    const key = keysByText(language).get(text);
    if (key) return language === 'en' ? text : translatorFor('en').t(key);
  }
  return text;
}

/** A question's or a template's wording as stored (`canonicalContent` on each of its texts). */
export const canonicalWording = <T>(value: T): T => mapStrings(value, canonicalContent) as T;

/**
 * Every string value of a JSON value (not its property names) through `change`; the same value when none changed.
 * Content's `translations` are an admin's own words: kept exactly as written.
 */
function mapStrings(
  value: unknown,
  change: (text: string, field?: string) => string,
  field?: string,
): unknown {
  if (typeof value === 'string') return change(value, field);
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const next = mapStrings(item, change, field);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? items : value;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const entries = Object.entries(value).map(([name, item]) => {
      const next: unknown = name === 'translations' ? item : mapStrings(item, change, name);
      if (next !== item) changed = true;
      return [name, next] as const;
    });
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}

/**
 * A JSON answer in `locale`: a message key the server put in it ('results.anonymous', or a key with its values)
 * in words, and its content fields' catalogue texts (`CONTENT_FIELDS`) translated.
 */
export function localizeAnswer(locale: Locale, body: unknown): unknown {
  const translator = translatorFor(locale);
  return mapStrings(body, (text, field) => {
    const said = translateMessage(translator, text);
    if (said !== text) return said;
    return field && field in CONTENT_FIELDS ? localizeContent(locale, text, field) : text;
  });
}

/**
 * The API's JSON answers in the request's language, the one place they become words (as `app.onError` is for
 * errors): the keys the server answers with, and the catalogue's content. Comments, answers and everything people
 * wrote stay as written (a person's title is a catalogue text only if they copied it word for word, and then the
 * translation says the same).
 */
export function answerLanguage(pseudo: boolean): MiddlewareHandler {
  return async (c, next) => {
    await next();
    // JSON answers only: not a stream, a file or JSON Lines (application/jsonl).
    if (c.res.headers.get('content-type')?.split(';')[0]?.trim() !== 'application/json') return;
    const locale = requestLocale(c.req.header('accept-language'), pseudo);
    const text = await c.res.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return; // no body (a redirect), or not JSON after all: as it is
    }
    const translated = localizeAnswer(locale, body);
    if (translated === body) return;
    const headers = new Headers(c.res.headers);
    headers.delete('content-length');
    c.res = new Response(JSON.stringify(translated), { status: c.res.status, headers });
  };
}
