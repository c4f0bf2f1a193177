// Bundles the server into dist/main.js and the operations commands (backup, restore, db:move) into dist/ops.js,
// npm packages included: a few files to read and compile at start instead of hundreds resolved one by one (decision
// 0015: start-up and memory figures). main.js is a small entry that opens the database while the rest of the server,
// a chunk of its own, loads; single sign-on's libraries are a chunk loaded on first use (decision 0015, addendum).
// Two packages stay imports that Node resolves from node_modules: PGlite, which loads its WebAssembly and data files
// from beside its own module, and pino, which finds its worker files so.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const EXTERNAL = new Set(['@electric-sql/pglite', 'pino']);
/** The package a bare import names: `@scope/name` or `name`. */
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

// A clean folder: the chunks' names change with their content, so an earlier build's would stay behind.
rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/main.ts', ops: 'src/ops/cli.ts' },
  outdir: 'dist',
  // What the entries share, and what they load only when needed (`import()`: single sign-on's libraries), in
  // files of their own under dist/chunks.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Stack traces name the source file and line; the sources themselves stay out of the map (a third of its size).
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
  // Bundled CommonJS packages call require() for Node's own modules; an ES module has none of its own.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  plugins: [
    {
      name: 'external-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          EXTERNAL.has(packageOf(args.path)) ? { path: args.path, external: true } : undefined,
        );
      },
    },
  ],
});
