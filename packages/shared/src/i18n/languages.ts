/**
 * The languages the product speaks (issue 34, decision 0027): English, whose texts are the spec's exact words,
 * and four translations. Every catalogue has one file per language under `messages/<language>/`.
 */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt-BR'] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * Pseudo-locales, outside production only: `en-XA` is English accented, 30% longer and wrapped in ⟦ ⟧ (a text
 * without the markers was missed; a control that clips it breaks with longer words); `ar-XB` is the same written
 * right to left (a layout that holds with it holds for a right-to-left language).
 */
export const PSEUDO_LOCALES = ['en-XA', 'ar-XB'] as const;
export type PseudoLocale = (typeof PSEUDO_LOCALES)[number];
export type Locale = Language | PseudoLocale;

/** Each language's name in itself, as the language menu shows it. */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  'en-XA': '⟦Ƥşḗŭḓǿ-ḗƞɠŀīşħ⟧',
  'ar-XB': '⟦Ƥşḗŭḓǿ-ɍŧŀ⟧',
};

/**
 * The cookie that keeps a visitor's language (the web sets it when they choose); the server reads it to write
 * the page in that language, with its catalogue preloaded (no English flashes first).
 */
export const LANGUAGE_COOKIE = 'pulsecheck_language';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

export const isPseudoLocale = (value: unknown): value is PseudoLocale =>
  typeof value === 'string' && (PSEUDO_LOCALES as readonly string[]).includes(value);

/** The language whose catalogue a pseudo-locale is made from, and whose Intl formats it uses. */
export const baseLanguage = (locale: Locale): Language => (isPseudoLocale(locale) ? 'en' : locale);

/**
 * A language's name in the reader's language ('German' to an English reader, 'allemand' to a French one), by
 * Intl: for the note under content shown in a language other than the reader's (i18n/content.ts).
 */
export function languageNameIn(language: Language, locale: Locale): string {
  try {
    return new Intl.DisplayNames([baseLanguage(locale)], { type: 'language' }).of(language) ?? language;
  } catch {
    return language;
  }
}

export const textDirection = (locale: Locale): 'ltr' | 'rtl' => (locale === 'ar-XB' ? 'rtl' : 'ltr');

/**
 * The best of `available` for what a person asks, as an `Accept-Language` header ('de-CH,de;q=0.9,en;q=0.8') or
 * a browser's `navigator.languages`: by preference, the exact tag first, then the same language in another
 * region ('pt-PT' and 'pt' read Português (Brasil), 'de-AT' reads Deutsch); undefined when none matches.
 */
export function negotiateLanguage<T extends string>(
  asked: string | readonly string[] | null | undefined,
  available: readonly T[],
): T | undefined {
  if (!asked) return undefined;
  const ranges = (typeof asked === 'string' ? asked.split(',') : asked)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => range.tag && range.tag !== '*' && range.q > 0 && !Number.isNaN(range.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const primary = (tag: string) => tag.split('-')[0];
  for (const range of ranges) {
    const exact = available.find((tag) => tag.toLowerCase() === range.tag);
    if (exact) return exact;
    const sameLanguage = available.find((tag) => primary(tag.toLowerCase()) === primary(range.tag));
    if (sameLanguage) return sameLanguage;
  }
  return undefined;
}
