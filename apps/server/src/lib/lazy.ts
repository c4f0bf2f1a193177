/**
 * `load` run on the first call and its result shared by every call after it, concurrent ones included. A failed
 * load is not kept: the next call runs it again (a chunk read while a deployment replaces it, a passing fault).
 */
export function lazily<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
