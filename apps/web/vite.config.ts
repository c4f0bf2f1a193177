import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import { ROUTE_MODULES } from './src/app/route-modules.ts';

/**
 * Writes `.vite/route-preloads.json`: for each URL pattern of ROUTE_MODULES, the JavaScript files of its
 * screens and of everything they import statically, leaving out what the entry loads anyway. The server puts
 * them in the HTML as `<link rel="modulepreload">` (apps/server/src/lib/static-files.ts).
 */
function routePreloads(): Plugin {
  let root = '';
  return {
    name: 'pulsecheck:route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter(
        (output): output is Rollup.OutputChunk => output.type === 'chunk',
      );
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (fileName: string, seen: Set<string>) => {
        if (seen.has(fileName)) return;
        seen.add(fileName);
        for (const imported of byFile.get(fileName)?.imports ?? []) closure(imported, seen);
      };
      const entry = new Set<string>();
      for (const chunk of chunks) if (chunk.isEntry) closure(chunk.fileName, entry);
      const preloads: Record<string, string[]> = {};
      for (const [pattern, modules] of Object.entries(ROUTE_MODULES)) {
        const files = new Set<string>();
        for (const module of modules) {
          const id = path.resolve(root, module);
          const chunk =
            chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds.includes(id));
          if (!chunk) return this.error(`route-preloads: no chunk holds ${module} (route ${pattern})`);
          closure(chunk.fileName, files);
        }
        preloads[pattern] = [...files].filter((file) => !entry.has(file));
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/route-preloads.json',
        source: `${JSON.stringify(preloads, null, 2)}\n`,
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), routePreloads()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:3000', '/dev': 'http://127.0.0.1:3000' } },
  build: {
    sourcemap: false,
    target: 'es2022',
    // The manifest lets bench/bundle.mjs measure the JavaScript each route group loads.
    manifest: true,
    // Every browser the build targets (es2022) supports `<link rel="modulepreload">`: no polyfill in the entry.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry imports statically (React, the router, TanStack Query, the shared UI code)
            // in the entry's own file: every page loads all of it before it can start, and one file is
            // smaller gzipped than the dozen it was split into, and a dozen requests fewer (decision 0006).
            { name: 'framework', tags: ['$initial'], priority: 2 },
            // The icons (about 5 KiB gzipped in all) in one file: left to themselves they make a file each for
            // every set of screens that share them, a dozen requests of a few hundred bytes per screen.
            { name: 'icons', test: /node_modules[\\/]lucide-react/, priority: 1 },
          ],
        },
      },
    },
  },
});
