/**
 * The server's `notices` catalogue in English, for these rules' own tests: the phase and milestone notices travel as
 * catalogue keys with their values (`messageWith`) and the server says them in each recipient's language; the
 * tests read them in English, the spec's words. Never imported by the product's code.
 */
import { compileCatalogue } from '../i18n/compile';
import { Translator } from '../i18n/translate';

type Glob = (
  pattern: string,
  options: { eager: true; import: 'default' },
) => Record<string, Record<string, string>>;

const files = (import.meta as ImportMeta & { glob: Glob }).glob(
  '../../../../apps/server/messages/en/notices.json',
  { eager: true, import: 'default' },
);

const messages: Record<string, string> = {};
for (const file of Object.values(files)) Object.assign(messages, file);

const english = new Translator('en', compileCatalogue(messages, 'en'));

/** A notice's message (and its parts' texts) in English. */
export function inEnglish<T extends { message: string; parts?: { text: string }[] }>(notice: T): T {
  return {
    ...notice,
    message: english.say(notice.message),
    ...(notice.parts
      ? { parts: notice.parts.map((part) => ({ ...part, text: english.say(part.text) })) }
      : {}),
  };
}

/** A notice's text in English. */
export const sayInEnglish = (text: string) => english.say(text);
