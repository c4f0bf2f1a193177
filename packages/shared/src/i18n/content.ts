import { z } from 'zod';
import { baseLanguage, LANGUAGES, type Language, type Locale } from './languages';

/**
 * Content in several languages (issue 34, decision 0027, 'Content in several languages'): what an admin writes
 * (a loop's questions) is stored in the language they wrote it in, its owner's `language`, with optional
 * translations into the other four, `{ de: { text: '…' }, fr: { … } }`. The one rule of which one a reader sees is
 * `pickContent`; the one rule of what a translation may be is `contentTranslations`.
 */

/** Catalogue keys of the translations' own problems (packages/shared/messages/<language>/language.json). */
export const CONTENT_MESSAGES = {
  /** A translation is keyed by a language that is not one of the five. */
  translationLanguage: 'language.translationLanguage',
  /** A translation in the language the text is already written in. */
  translationSameLanguage: 'language.translationSameLanguage',
} as const;

/** Translations of one piece of content: a language's texts, at most one per language. */
export type Translations<T> = Partial<Record<Language, T>>;

const blank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** An entry in which nothing was written: none (the form's empty 'Add a translation'). */
function isEmptyEntry(entry: unknown): boolean {
  if (blank(entry)) return true;
  if (typeof entry !== 'object' || entry === null) return false;
  return Object.values(entry).every(blank);
}

/**
 * The translations of a piece of content whose texts `entry` validates as the original's are (the same schema, so
 * the same limits and messages). An entry left empty is none; no entries at all is `undefined`.
 */
export function contentTranslations<T extends z.ZodType<Record<string, string>>>(entry: T) {
  const record = z
    .partialRecord(z.enum(LANGUAGES, { error: CONTENT_MESSAGES.translationLanguage }), entry, {
      error: CONTENT_MESSAGES.translationLanguage,
    })
    .optional();
  const dropEmpty = (value: unknown) => {
    if (value === null || value === undefined) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) return value;
    const kept = Object.entries(value).filter(([, item]) => !isEmptyEntry(item));
    return kept.length === 0 ? undefined : Object.fromEntries(kept);
  };
  // The form and the API write what the record takes (its input type), empty entries included.
  return (
    z.preprocess(dropEmpty, record) as unknown as z.ZodType<
      Exclude<z.output<typeof record>, undefined>,
      Partial<Record<Language, z.input<T>>>
    >
  ).optional();
}

/** The translations' languages that are the content's own language (refused: that text is the original). */
export const sameLanguageTranslations = (
  translations: Partial<Record<string, unknown>> | null | undefined,
  language: Language,
): boolean => Boolean(translations && translations[language] !== undefined);

/**
 * What a reader in `locale` sees of content written in `language`: its translation into their language when
 * there is a whole one (every text the original has), else the original; `shownIn` is the language of what is
 * shown when it is not the reader's (say so, and mark it `lang`), else null. A pseudo-locale reads its base.
 */
export function pickContent<T extends Record<string, string | null>>(options: {
  original: T;
  language: Language;
  translations: Partial<Record<Language, Partial<Record<keyof T, string>>>> | null | undefined;
  locale: Locale;
}): { content: T; shownIn: Language | null } {
  const reader = baseLanguage(options.locale);
  if (reader === options.language) return { content: options.original, shownIn: null };
  const translation = options.translations?.[reader];
  if (translation) {
    const content = { ...options.original };
    let whole = true;
    for (const field of Object.keys(options.original) as (keyof T)[]) {
      if (options.original[field] === null) continue;
      const text = translation[field];
      if (typeof text !== 'string' || text.trim() === '') whole = false;
      else content[field] = text as T[keyof T];
    }
    if (whole) return { content, shownIn: null };
  }
  return { content: options.original, shownIn: options.language };
}
