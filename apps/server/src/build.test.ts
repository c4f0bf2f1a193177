import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_BUNDLE } from './test/server-process';

/** The files `file` reaches: by static imports only, or by `import()` too. */
function reachable(file: string, dynamic: boolean, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  const pattern = dynamic
    ? /(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+\.js)"/g
    : /(?:from|^import)\s+"(\.{1,2}\/[^"]+\.js)"/gm;
  for (const match of code.matchAll(pattern))
    if (match[1]) reachable(path.resolve(path.dirname(file), match[1]), dynamic, seen);
  return seen;
}
const holds = (files: Set<string>, pkg: string) =>
  [...files].some((file) => readFileSync(file, 'utf8').includes(`node_modules/${pkg}/`));

// The start-up split of decision 0015 (addendum), on the build the server runs (`npm test` builds first).
describe('the server build', () => {
  it('loads the SSO libraries only on first use: in the build, but not among what a start imports', () => {
    // A start imports the entry and, beside the database opening, the server chunk (and what they import).
    const serverChunk = /import\("\.\/(chunks\/server-[\w-]+\.js)"\)/.exec(
      readFileSync(SERVER_BUNDLE, 'utf8'),
    )?.[1];
    expect(serverChunk).toBeDefined();
    const atStart = reachable(SERVER_BUNDLE, false);
    reachable(path.resolve(path.dirname(SERVER_BUNDLE), serverChunk!), false, atStart);
    const all = reachable(SERVER_BUNDLE, true);
    for (const pkg of [
      'samlify',
      'xml-crypto',
      '@xmldom/xmldom',
      '@better-auth/sso',
      '@node-saml/node-saml',
    ]) {
      expect(holds(all, pkg), pkg).toBe(true);
      expect(holds(atStart, pkg), pkg).toBe(false);
    }
  });

  it('loads the rest of the server beside the database opening: the entry imports server.ts with import()', () => {
    const entry = readFileSync(SERVER_BUNDLE, 'utf8');
    expect(entry).toMatch(/import\("\.\/chunks\/server-[\w-]+\.js"\)/);
    expect(holds(reachable(SERVER_BUNDLE, false), 'hono')).toBe(false);
  });
});
