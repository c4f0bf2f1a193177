import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { ON_DEMAND_MODULES, ROUTE_MODULES } from './src/app/route-modules.ts';
import { fileHolding, filesReached, outputChunks } from './vite-chunks.ts';
import { iconImports } from './vite-icons.ts';
import { messageParts, messages } from './vite-messages.ts';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/** Which part of the product a URL pattern belongs to: its screens share a common file (see `commonChunk`). */
const area = (pattern: string) =>
  ['/', '/terms', '/privacy'].includes(pattern)
    ? 'landing'
    : /^\/(login|admin\/signup|reset-password|auth\/|invite\/|unsubscribe)/.test(pattern)
      ? 'auth'
      : /^\/admin\/(account-settings|workspace-settings|webhooks|team-management)/.test(pattern)
        ? 'settings'
        : /^\/admin\/(configure-loop|completion-status|loop-)/.test(pattern)
          ? 'loops'
          : pattern.startsWith('/admin/')
            ? 'admin'
            : 'people';

/** The screen modules the router loads lazily, each with the parts of the product that show it. */
const routeScreens = new Map<string, Set<string>>();
for (const [pattern, modules] of Object.entries(ROUTE_MODULES))
  for (const module of modules) {
    const id = path.resolve(webRoot, module);
    routeScreens.set(id, (routeScreens.get(id) ?? new Set()).add(area(pattern)));
  }

/** Source size (transformed) above which a shared module keeps its own file instead of joining a common one. */
const COMMON_MODULE_MAX = 6000;
const appCode =
  /apps[\\/]web[\\/]src[\\/]|packages[\\/]shared[\\/]src[\\/]|node_modules[\\/](@tanstack|lucide-react)[\\/]/;

/**
 * Names the file of a small module that two or more screens import: `common-` and the parts of the product
 * whose screens import it (`common-admin`, `common-admin-people`, …). Left to the bundler, each set of screens
 * sharing a few modules gets a file of its own: the dashboard loaded 21 files of 250 to 2,400 bytes, and over
 * HTTP/1.1 their round trips, not their bytes, held back its first paint (decision 0006). A module joins only
 * if it is small, a screen imports it statically, and it imports (beyond the entry's code) only modules that
 * join too: no library a screen loads on demand (forms, dialogs, zod) comes along, and the files of a part
 * never import another part's.
 */
function commonChunk(id: string, ctx: Rolldown.ChunkingContext): string | null {
  const light = new Map<string, boolean>();
  const isLight = (moduleId: string): boolean => {
    const known = light.get(moduleId);
    if (known !== undefined) return known;
    light.set(moduleId, false); // an import cycle stays out
    const info = ctx.getModuleInfo(moduleId);
    const verdict =
      info !== null &&
      !routeScreens.has(moduleId) &&
      appCode.test(moduleId) &&
      (info.code?.length ?? Infinity) <= COMMON_MODULE_MAX &&
      info.importedIds.every((imported) => initial(imported, ctx) || isLight(imported));
    light.set(moduleId, verdict);
    return verdict;
  };
  if (!isLight(id)) return null;
  // The screens that import it, through static imports only.
  const screens = new Set<string>();
  const seen = new Set<string>();
  const climb = (moduleId: string) => {
    if (seen.has(moduleId)) return;
    seen.add(moduleId);
    if (routeScreens.has(moduleId)) screens.add(moduleId);
    else for (const importer of ctx.getModuleInfo(moduleId)?.importers ?? []) climb(importer);
  };
  climb(id);
  if (screens.size < 2) return null;
  const areas = new Set([...screens].flatMap((screen) => [...(routeScreens.get(screen) ?? [])]));
  return `common-${[...areas].sort().join('-')}`;
}

/** Whether the entry imports the module statically (then it is in the entry's file already). */
function initial(id: string, ctx: Rolldown.ChunkingContext): boolean {
  const seen = new Set<string>();
  const climb = (moduleId: string): boolean => {
    if (seen.has(moduleId)) return false;
    seen.add(moduleId);
    const info = ctx.getModuleInfo(moduleId);
    return info !== null && (info.isEntry || info.importers.some(climb));
  };
  return climb(id);
}

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
      const { chunks, byFile } = outputChunks(bundle);
      const statically = (start: Iterable<string>) => filesReached(byFile, start, { onDemand: false });
      const entry = statically(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
      const preloads: Record<string, string[]> = {};
      for (const [pattern, modules] of Object.entries(ROUTE_MODULES)) {
        const files = statically(modules.map((module) => fileHolding(chunks, root, module)));
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
  plugins: [
    iconImports(),
    react(),
    tailwindcss(),
    routePreloads(),
    messages(),
    messageParts(ROUTE_MODULES, ON_DEMAND_MODULES),
  ],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // The catalogues are parsed at build time (vite-messages.ts): the browser gets FormatJS without its parser.
      '@formatjs/icu-messageformat-parser': '@formatjs/icu-messageformat-parser/no-parser.js',
    },
  },
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
            { name: commonChunk, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
