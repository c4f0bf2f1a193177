import { readCatalogue } from '../../packages/shared/messages/read.ts';
import { compileCatalogue } from '../../packages/shared/src/i18n/compile.ts';
import { type MessageValues, Translator } from '../../packages/shared/src/i18n/translate.ts';

/**
 * The shared catalogue's English words (packages/shared/messages/en/*.json, decision 0027), for the specs that
 * find a shared message on the page: the browser tests' app speaks English.
 */
const words = new Translator('en', compileCatalogue(readCatalogue('shared', 'en').messages, 'en'));

/** The English text of the shared message `key`, its placeholders filled: `english(AUDIT_MESSAGES.title)`. */
export const english = (key: string, values?: MessageValues): string => words.t(key, values);
