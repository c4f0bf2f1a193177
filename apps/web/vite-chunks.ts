import path from 'node:path';
import type { Rollup } from 'vite';

/** The build's JavaScript files, and a lookup by file name (for the plugins that read the finished build). */
export function outputChunks(bundle: Rollup.OutputBundle) {
  const chunks = Object.values(bundle).filter(
    (output): output is Rollup.OutputChunk => output.type === 'chunk',
  );
  return { chunks, byFile: new Map(chunks.map((chunk) => [chunk.fileName, chunk])) };
}

/** The file holding `module` (a path under the web root, as route-modules.ts names them). */
export function fileHolding(chunks: readonly Rollup.OutputChunk[], root: string, module: string): string {
  const id = path.resolve(root, module);
  const chunk = chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds.includes(id));
  if (!chunk) throw new Error(`No file of the build holds ${module}`);
  return chunk.fileName;
}

/**
 * The files of `start` and every file they import, statically or (with `onDemand`) also on demand, short of the
 * files of `stop`.
 */
export function filesReached(
  byFile: ReadonlyMap<string, Rollup.OutputChunk>,
  start: Iterable<string>,
  { stop = new Set<string>(), onDemand = true }: { stop?: ReadonlySet<string>; onDemand?: boolean } = {},
): Set<string> {
  const seen = new Set<string>();
  const visit = (fileName: string) => {
    const chunk = byFile.get(fileName);
    if (!chunk || seen.has(fileName) || stop.has(fileName)) return;
    seen.add(fileName);
    for (const imported of onDemand ? [...chunk.imports, ...chunk.dynamicImports] : chunk.imports)
      visit(imported);
  };
  for (const fileName of start) visit(fileName);
  return seen;
}
