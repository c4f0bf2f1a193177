// Bundles the server into dist/main.js. Workspace packages (TypeScript sources) are inlined;
// every other package stays an import that Node resolves from node_modules.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
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
