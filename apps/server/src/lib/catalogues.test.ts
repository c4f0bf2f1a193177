import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { LANGUAGES } from '@pulsecheck/shared/i18n/languages';
import { describe, expect, it } from 'vitest';
import { type CatalogueSide, readCatalogue } from '../../../../packages/shared/messages/read.ts';

/** A message's placeholders and tags, by name: what every language's text must keep. */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    into.add(element.type === TYPE.tag ? `<${element.value}>` : element.value);
    if (element.type === TYPE.tag) argumentsOf(element.children, into);
    if (element.type === TYPE.plural || element.type === TYPE.select)
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
  }
  return into;
}

const SIDES: CatalogueSide[] = ['shared', 'web', 'server'];
const root = path.resolve(import.meta.dirname, '../../../..');

describe('the message catalogues (decision 0027)', () => {
  for (const side of SIDES) {
    const english = readCatalogue(side, 'en').messages;
    for (const language of LANGUAGES) {
      it(`${side}, ${language}: every key, each message parses and keeps English's placeholders`, () => {
        const messages = readCatalogue(side, language).messages;
        expect(Object.keys(messages).filter((key) => !(key in english))).toEqual([]);
        expect(Object.keys(english).filter((key) => !(key in messages))).toEqual([]);
        const differing: string[] = [];
        for (const [key, message] of Object.entries(messages)) {
          const theirs = [...argumentsOf(parse(message))].sort();
          const ours = [...argumentsOf(parse(english[key] ?? ''))].sort();
          if (theirs.join() !== ours.join()) differing.push(`${key}: ${theirs.join()} ≠ ${ours.join()}`);
          if (language !== 'en' && message.trim() === '') differing.push(`${key}: empty`);
        }
        expect(differing).toEqual([]);
      });
    }
  }

  it("no key is both a shared word and a side's own (the side's would hide the shared one)", () => {
    const shared = Object.keys(readCatalogue('shared', 'en').messages);
    const web = readCatalogue('web', 'en').messages;
    const server = readCatalogue('server', 'en').messages;
    expect(shared.filter((key) => key in web || key in server)).toEqual([]);
  });

  /** Files of a folder, recursively, that a pattern picks. */
  const sources = (folder: string, pattern: RegExp): string[] =>
    readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => pattern.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => path.join(root, folder, file));

  it('every key the code names is in the English catalogue of its side', () => {
    const shared = readCatalogue('shared', 'en').messages;
    const known = {
      web: { ...shared, ...readCatalogue('web', 'en').messages },
      server: { ...shared, ...readCatalogue('server', 'en').messages },
    };
    const missing: string[] = [];
    const check = (side: 'web' | 'server', folders: string[]) => {
      for (const folder of folders)
        for (const file of sources(folder, /\.tsx?$/)) {
          const text = readFileSync(file, 'utf8');
          for (const match of text.matchAll(/\b(?:t|tRich|rich)\(\s*'([a-zA-Z]+\.[\w.]+)'/g)) {
            const key = match[1] ?? '';
            if (!(key in known[side])) missing.push(`${path.relative(root, file)}: ${key}`);
          }
        }
    };
    check('web', ['apps/web/src']);
    check('server', ['apps/server/src']);
    expect(missing).toEqual([]);
  });
});
