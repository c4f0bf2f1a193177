import type { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Node 20's AsyncLocalStorage, once used, switches on a hook that runs for every promise the process creates from
 * then on, whatever the request: 11 % of the server's CPU under the autosave load (bench/README.md, session 10).
 * better-auth keeps each call's context in three of them (found through its process-wide global) and sign-in
 * through an identity provider in one of ours (auth/sso.ts); none is needed between calls. So every call into
 * better-auth goes through `gated` (createAuth wraps its API and handlers with `gateCalls`), and when the last
 * call in flight ends, those storages are switched off; the next call's `run` switches them on again. Nothing of
 * better-auth runs after its call returns (no background tasks are configured), so nothing reads them then.
 */
const BETTER_AUTH_GLOBAL = Symbol.for('better-auth:global');
const BETTER_AUTH_STORAGES = [
  'endpointContextAsyncStorage',
  'requestStateAsyncStorage',
  'adapterAsyncStorage',
] as const;

type Storage = Pick<AsyncLocalStorage<unknown>, 'disable'>;
type BetterAuthGlobal = { context?: Partial<Record<(typeof BETTER_AUTH_STORAGES)[number], Storage>> };

const own = new Set<Storage>();
let inFlight = 0;

/** The storages switched off between calls: better-auth's, and those registered with `gatedStorage`. */
export function gatedStorages(): Storage[] {
  const context = (globalThis as { [BETTER_AUTH_GLOBAL]?: BetterAuthGlobal })[BETTER_AUTH_GLOBAL]?.context;
  const theirs = BETTER_AUTH_STORAGES.map((name) => context?.[name]);
  return [...theirs.filter((storage) => storage !== undefined), ...own];
}

/** Registers a storage of ours that is only used inside `gated` calls. */
export function gatedStorage<S extends Storage>(storage: S): S {
  own.add(storage);
  return storage;
}

function leave() {
  inFlight -= 1;
  if (inFlight === 0) for (const storage of gatedStorages()) storage.disable();
}

/** Calls `run`, which may use the storages; the last call in flight to end switches them off. */
export function gated<T>(run: () => T): T {
  inFlight += 1;
  let result: T;
  try {
    result = run();
  } catch (error) {
    leave();
    throw error;
  }
  if (result instanceof Promise) return result.finally(leave) as T;
  leave();
  return result;
}

/** `target` with each of its functions (better-auth's endpoints, a handler) called through `gated`. */
export function gateCalls<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value: unknown = Reflect.get(object, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => gated(() => Reflect.apply(value, object, args) as unknown);
    },
  });
}
