import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver whose code (zod, the shared schema, @hookform/resolvers) is fetched when the form
 * first validates, or earlier through `preload` (call it when the form gets focus): the form paints without it.
 * A failed fetch is tried again on the next validation.
 */
export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>) {
  let loaded: Promise<Resolver<T>> | undefined;
  const preload = () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  const resolver: Resolver<T> = async (values, context, options) =>
    (await preload())(values, context, options);
  return { resolver, preload: () => void preload().catch(() => undefined) };
}
