/**
 * Reading the catalogues from disk (Node only: the web's build, the server, the tests; outside `src`, which runs
 * in browsers too). Each side keeps one
 * catalogue per language, `messages/<language>/`, made of one JSON file per area of the product: `results.json`
 * holds the keys `results.…`, each an ICU message (decision 0027). The shared catalogue
 * (packages/shared/messages) holds the words both sides say; the web's and the server's hold their own.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Language } from '../src/i18n/languages';

export type CatalogueSide = 'shared' | 'web' | 'server';

/**
 * The repository's root: the folder above this file (or above the server's bundle that holds it) that holds
 * `packages/shared/messages`.
 */
function repositoryRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'packages/shared/messages'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('The message catalogues (packages/shared/messages) were not found');
    dir = parent;
  }
}

const SIDE_FOLDERS: Record<CatalogueSide, string> = {
  shared: 'packages/shared/messages',
  web: 'apps/web/messages',
  server: 'apps/server/messages',
};

export const catalogueFolder = (side: CatalogueSide, language: Language, root = repositoryRoot()) =>
  path.join(root, SIDE_FOLDERS[side], language);

/** One side's catalogue in one language: every area file's messages, in one record. */
export function readCatalogue(
  side: CatalogueSide,
  language: Language,
  root = repositoryRoot(),
): { messages: Record<string, string>; files: string[] } {
  const folder = catalogueFolder(side, language, root);
  const files = existsSync(folder)
    ? readdirSync(folder)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => path.join(folder, name))
    : [];
  const messages: Record<string, string> = {};
  for (const file of files) {
    const area = path.basename(file, '.json');
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error(`${file}: a catalogue file is one JSON object of keys and messages`);
    for (const [key, message] of Object.entries(parsed)) {
      if (typeof message !== 'string') throw new Error(`${file}: "${key}" is not a text`);
      if (!key.startsWith(`${area}.`)) throw new Error(`${file}: "${key}" must start with "${area}."`);
      if (key in messages) throw new Error(`${file}: "${key}" is defined twice`);
      messages[key] = message;
    }
  }
  return { messages, files };
}
