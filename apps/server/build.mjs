// Bundles the server into dist/main.js and the operations commands (backup, restore, db:move) into dist/ops.js. Workspace packages (TypeScript sources) are inlined;
// every other package stays an import that Node resolves from node_modules.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'src/main.ts', ops: 'src/ops/cli.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@pulsecheck/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
