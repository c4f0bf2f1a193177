import type { Plugin } from 'vite';
import { readCatalogue } from '../../packages/shared/messages/read.ts';
import { compileCatalogue } from '../../packages/shared/src/i18n/compile.ts';
import { baseLanguage, isLanguage, isPseudoLocale } from '../../packages/shared/src/i18n/languages.ts';

const PREFIX = 'virtual:messages/';

/**
 * `import('virtual:messages/de')`: the web's catalogue in one language (the shared words and the web's own),
 * parsed at build time, as a module of its own that the app loads on demand (decision 0027). Pseudo-locales are
 * made from English here.
 */
export function messages(): Plugin {
  return {
    name: 'pulsecheck:messages',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const locale = id.slice(PREFIX.length + 1);
      if (!isLanguage(locale) && !isPseudoLocale(locale)) return this.error(`No catalogue for "${locale}"`);
      const language = baseLanguage(locale);
      const shared = readCatalogue('shared', language);
      const web = readCatalogue('web', language);
      for (const file of [...shared.files, ...web.files]) this.addWatchFile(file);
      const compiled = compileCatalogue({ ...shared.messages, ...web.messages }, locale);
      return `export default ${JSON.stringify(compiled)};`;
    },
  };
}
