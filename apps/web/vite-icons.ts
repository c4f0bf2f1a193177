import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/** `import { Bell, X as Close } from 'lucide-react'` (values; a type import is left alone). */
const ICON_IMPORT = /import\s*\{([^}]*)\}\s*from\s*['"]lucide-react['"];?/g;

/** Icon name → its module ('Bell' → 'bell'), from the package's index. */
function iconModules(): Map<string, string> {
  const index = path.join(
    path.dirname(createRequire(import.meta.url).resolve('lucide-react/package.json')),
    'dist/esm/lucide-react.mjs',
  );
  const modules = new Map<string, string>();
  for (const [, names, file] of readFileSync(index, 'utf8').matchAll(
    /export \{([^}]*)\} from '\.\/icons\/([\w-]+)\.mjs'/g,
  ))
    for (const [, name] of (names ?? '').matchAll(/default as (\w+)/g))
      if (name && file) modules.set(name, file);
  return modules;
}

/**
 * Imports each icon from its own module (`lucide-react/icons/bell`) instead of the package's index, so that the
 * build knows which screens use which icon and each page loads only its own (decision 0027; a page loaded all
 * 130 of them, 6 KiB gzipped). The source keeps the usual named imports and their types.
 */
export function iconImports(): Plugin {
  let modules: Map<string, string> | undefined;
  return {
    name: 'pulsecheck:icon-imports',
    enforce: 'pre',
    apply: 'build',
    transform(code, id) {
      if (!/\.tsx?$/.test(id) || id.includes('node_modules') || !code.includes('lucide-react'))
        return undefined;
      modules ??= iconModules();
      const known = modules;
      const rewritten = code.replace(ICON_IMPORT, (statement: string, specifiers: string) => {
        const imports: string[] = [];
        for (const specifier of specifiers
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)) {
          if (specifier.startsWith('type ')) continue;
          const [name = '', local = name] = specifier.split(/\s+as\s+/);
          const file = known.get(name);
          if (!file) return statement; // a name the index does not export as an icon: left as written
          imports.push(`import ${local} from 'lucide-react/icons/${file}';`);
        }
        return imports.join('\n');
      });
      return rewritten === code ? undefined : { code: rewritten, map: null };
    },
  };
}
