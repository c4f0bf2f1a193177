/**
 * The server's words in each language (decision 0027): the shared catalogue and the server's own (e-mails,
 * notifications, error messages, CSV headers), read from disk once per language and kept.
 */
import {
  baseLanguage,
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type Locale,
  negotiateLanguage,
  PSEUDO_LOCALES,
} from '@pulsecheck/shared/i18n/languages';
import { compileCatalogue } from '@pulsecheck/shared/i18n/compile';
import { Translator } from '@pulsecheck/shared/i18n/translate';
import { readCatalogue } from '../../../../packages/shared/messages/read.ts';

const translators = new Map<Locale, Translator>();

/** Everything the server says in `locale`. */
export function translatorFor(locale: Locale): Translator {
  let translator = translators.get(locale);
  if (!translator) {
    const language = baseLanguage(locale);
    const messages = {
      ...readCatalogue('shared', language).messages,
      ...readCatalogue('server', language).messages,
    };
    translator = new Translator(locale, compileCatalogue(messages, locale));
    translators.set(locale, translator);
  }
  return translator;
}

/**
 * The language of a request: its `Accept-Language` (the web app sends its own language with every call), one
 * of the five, else English. Pseudo-locales are honoured only when `pseudo` allows them (outside production).
 */
export function requestLocale(acceptLanguage: string | undefined | null, pseudo: boolean): Locale {
  const available: readonly Locale[] = pseudo ? [...LANGUAGES, ...PSEUDO_LOCALES] : LANGUAGES;
  return negotiateLanguage(acceptLanguage, available) ?? DEFAULT_LANGUAGE;
}
