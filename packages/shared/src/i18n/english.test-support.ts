/**
 * The shared catalogue's English, for the shared package's own tests (vitest; no Node file system, as the rules
 * run in browsers too): `english.say(LOOP_MESSAGES.roundClosed)`, `english.t(key, values)`, and messages made
 * with `messageWith`. Never imported by the product's code.
 */
import { compileCatalogue } from './compile';
import { Translator } from './translate';

type Glob = (
  pattern: string,
  options: { eager: true; import: 'default' },
) => Record<string, Record<string, string>>;

/** Every area file of packages/shared/messages/en, as Vite's glob import reads them in the tests. */
const files = (import.meta as ImportMeta & { glob: Glob }).glob('../../messages/en/*.json', {
  eager: true,
  import: 'default',
});

const messages: Record<string, string> = {};
for (const file of Object.values(files)) Object.assign(messages, file);

export const english = new Translator('en', compileCatalogue(messages, 'en'));
