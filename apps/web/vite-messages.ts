import { createHash } from 'node:crypto';
import type { Plugin, Rollup } from 'vite';
import { fileHolding, filesReached, outputChunks } from './vite-chunks.ts';
import { readCatalogue } from '../../packages/shared/messages/read.ts';
import { compileCatalogue } from '../../packages/shared/src/i18n/compile.ts';
import {
  baseLanguage,
  isLanguage,
  isPseudoLocale,
  LANGUAGES,
  type Locale,
  PSEUDO_LOCALES,
} from '../../packages/shared/src/i18n/languages.ts';
import { ENTRY_PART, type MessageParts } from '../../packages/shared/src/i18n/message-parts.ts';
import type { Messages } from '../../packages/shared/src/i18n/translate.ts';

const PREFIX = 'virtual:messages/';

/** The web's whole catalogue in one language (the shared words and the web's own), parsed. */
function webCatalogue(locale: Locale) {
  const language = baseLanguage(locale);
  const shared = readCatalogue('shared', language);
  const web = readCatalogue('web', language);
  return {
    messages: compileCatalogue({ ...shared.messages, ...web.messages }, locale),
    files: [...shared.files, ...web.files],
  };
}

/**
 * `import('virtual:messages/de')`: the web's whole catalogue in one language, parsed, as a module: what the
 * development server and the components' tests load. Pseudo-locales are made from English here.
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
      const catalogue = webCatalogue(locale);
      for (const file of catalogue.files) this.addWatchFile(file);
      return `export default ${JSON.stringify(catalogue.messages)};`;
    },
  };
}

/** A string in code that may name a message or the start of one: `'dashboard.title'`, `` `results.rating.${…}` ``. */
const KEY_LIKE = /["'`]([a-z][A-Za-z0-9]*\.[A-Za-z0-9_.]*)/g;

/**
 * The keys a chunk's code names: each string that is a key or the start of keys (a key made from a known start
 * and a value, `` `errors.${code}` ``) brings every key it starts. A key the code builds some other way would be
 * missed: the pseudo-locale walk (e2e/languages*.spec.ts) shows it as text without markers.
 */
function keysNamedIn(code: string, keys: readonly string[], areas: ReadonlySet<string>): Set<string> {
  const named = new Set<string>();
  for (const [, start] of code.matchAll(KEY_LIKE)) {
    if (!start || !areas.has(start.slice(0, start.indexOf('.')))) continue;
    for (const key of keys) if (key.startsWith(start)) named.add(key);
  }
  return named;
}

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/**
 * The build's catalogue in parts, so that a page loads only the words its code says (decision 0027): per
 * language, `entry` (what the entry's code and the code it loads on demand outside the screens say: error pages,
 * the language menu, toasts), per URL pattern of `routeModules` the words of its screens and of everything they
 * load, statically or on demand (dialogs, forms' rules), less the entry's, and one for each of `onDemandModules`
 * (code loaded on demand that no screen imports) with all it loads. Written as JSON files under
 * `assets/messages-<hash>/<locale>/`, and the map as `.vite/message-parts.json` for the server.
 */
export function messageParts(
  routeModules: Readonly<Record<string, readonly string[]>>,
  onDemandModules: Readonly<Record<string, string>>,
): Plugin {
  let root = '';
  return {
    name: 'pulsecheck:message-parts',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const locales: Locale[] = [...LANGUAGES, ...PSEUDO_LOCALES];
      const catalogues = new Map(locales.map((locale) => [locale, webCatalogue(locale).messages]));
      const keys = Object.keys(catalogues.get('en') ?? {}).sort();
      const areas = new Set(keys.map((key) => key.slice(0, key.indexOf('.'))));

      const { chunks, byFile } = outputChunks(bundle);
      const named = new Map<string, Set<string>>();
      const keysOf = (chunk: Rollup.OutputChunk) => {
        let found = named.get(chunk.fileName);
        if (!found) named.set(chunk.fileName, (found = keysNamedIn(chunk.code, keys, areas)));
        return found;
      };
      const reach = (start: Iterable<string>, stop: ReadonlySet<string>, onDemand = true) =>
        filesReached(byFile, start, { stop, onDemand });
      const keysIn = (files: Iterable<string>) => {
        const found = new Set<string>();
        for (const fileName of files) {
          const chunk = byFile.get(fileName);
          if (chunk) for (const key of keysOf(chunk)) found.add(key);
        }
        return found;
      };

      const screenFile = (module: string) => fileHolding(chunks, root, module);
      const entries = new Set(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
      const screens = new Set(Object.values(routeModules).flat().map(screenFile));
      const onDemand = Object.entries(onDemandModules).map(
        ([name, module]) => [name, screenFile(module)] as const,
      );
      const fromScreens = reach([...screens, ...onDemand.map(([, file]) => file)], entries);
      // Every page's: the entry's code, and what it loads on demand that no screen does, with all it imports.
      const entryCode = reach(entries, new Set(), false);
      const orphans = [...entryCode]
        .flatMap((fileName) => byFile.get(fileName)?.dynamicImports ?? [])
        .filter((fileName) => !fromScreens.has(fileName));
      const entryKeys = keysIn([...entryCode, ...reach(orphans, new Set([...entries, ...screens]))]);

      const parts = new Map<string, string[]>([[ENTRY_PART, [...entryKeys]]]);
      /** The part of what `files` and all they load say, less every page's words: its name. */
      const part = (files: string[]) => {
        const own = [...keysIn(reach(files, entries))].filter((key) => !entryKeys.has(key));
        const name = shortHash(own.join('\n'));
        parts.set(name, own);
        return name;
      };
      const routes: Record<string, string> = {};
      for (const [pattern, modules] of Object.entries(routeModules))
        routes[pattern] = part(modules.map(screenFile));
      const modules: Record<string, string> = {};
      for (const [name, file] of onDemand) modules[name] = part([file]);

      const files = new Map<string, string>();
      for (const [locale, catalogue] of catalogues)
        for (const [name, partKeys] of parts) {
          const words: Record<string, Messages[string]> = {};
          for (const key of partKeys) {
            const message = catalogue[key];
            if (message !== undefined) words[key] = message;
          }
          files.set(`${locale}/${name}.json`, JSON.stringify(words));
        }
      const dir = `assets/messages-${shortHash([...files].flat().join('\n'))}`;
      for (const [file, source] of files)
        this.emitFile({ type: 'asset', fileName: `${dir}/${file}`, source });
      const map: MessageParts = { dir, routes, modules };
      this.emitFile({
        type: 'asset',
        fileName: '.vite/message-parts.json',
        source: `${JSON.stringify(map, null, 2)}\n`,
      });
    },
  };
}
