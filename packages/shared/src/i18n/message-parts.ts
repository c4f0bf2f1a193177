/**
 * The web's catalogue in parts (decision 0027): the build (apps/web/vite-messages.ts) writes each language's
 * messages as one file for what every page says (`entry`) and one for each URL pattern's screens, with only the
 * keys their code names (and one for each module loaded on demand that no screen imports); the server puts the map
 * in the page (`MESSAGE_PARTS_ELEMENT`) and preloads the page's two parts; the app loads the part of each URL it
 * opens and of each such module with it (apps/web/src/lib/i18n.tsx).
 */
import type { Locale } from './languages';

/** `.vite/message-parts.json`, and the map the page carries. */
export type MessageParts = {
  /** The folder of the parts under the web root, named by their content: `assets/messages-<hash>`. */
  dir: string;
  /** URL pattern (as in apps/web/src/app/route-modules.ts) → the name of its screens' part. */
  routes: Record<string, string>;
  /** Module loaded on demand outside the screens ('voting') → the name of its part. */
  modules: Record<string, string>;
};

/** The part every page loads first. */
export const ENTRY_PART = 'entry';

/** The id of the `<script type="application/json">` holding the map in the page. */
export const MESSAGE_PARTS_ELEMENT = 'message-parts';

/** The URL of a part in a language. */
export const messagePartUrl = (parts: MessageParts, locale: Locale, name: string) =>
  `/${parts.dir}/${locale}/${name}.json`;

const segments = (value: string) => value.split('/').filter(Boolean);

/**
 * The pattern of `patterns` that matches `urlPath` (`:name` matches one segment, the rest literally and without
 * regard to case, as the client router does); the most specific one (most literal segments) when several do.
 */
export function matchRoutePattern(patterns: Iterable<string>, urlPath: string): string | null {
  const parts = segments(urlPath);
  let best: { pattern: string; literal: number } | null = null;
  for (const pattern of patterns) {
    const expected = segments(pattern);
    if (expected.length !== parts.length) continue;
    let literal = 0;
    const matches = expected.every((segment, i) => {
      if (segment.startsWith(':')) return true;
      literal += 1;
      return segment.toLowerCase() === parts[i]?.toLowerCase();
    });
    if (matches && (!best || literal > best.literal)) best = { pattern, literal };
  }
  return best?.pattern ?? null;
}
