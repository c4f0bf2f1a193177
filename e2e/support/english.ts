import { readCatalogue } from '../../packages/shared/messages/read.ts';
import { compileCatalogue } from '../../packages/shared/src/i18n/compile.ts';
import { baseLanguage, type Locale } from '../../packages/shared/src/i18n/languages.ts';
import { type MessageValues, Translator } from '../../packages/shared/src/i18n/translate.ts';

/**
 * A language's words as the app or the server says them (the shared catalogue with the side's own, decision 0027),
 * for the specs that find a message on a page or in an e-mail: `wordsIn('de').t('auth.fullName')`. A pseudo-locale
 * (`en-XA`) is made from English, as the build makes it.
 */
export function wordsIn(locale: Locale, side: 'web' | 'server' = 'web'): Translator {
  const language = baseLanguage(locale);
  const messages = {
    ...readCatalogue('shared', language).messages,
    ...readCatalogue(side, language).messages,
  };
  return new Translator(locale, compileCatalogue(messages, locale));
}

const words = wordsIn('en');

/** The English text of the shared message `key`, its placeholders filled: `english(AUDIT_MESSAGES.title)`. */
export const english = (key: string, values?: MessageValues): string => words.t(key, values);
