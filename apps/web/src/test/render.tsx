import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';

/**
 * Renders `routes` in a memory router, starting at `at` (the first route's path by default), with a fresh query
 * client that does not retry and keeps what a test seeds (`seed: [[key, data], …]`).
 */
export function renderRoutes(
  routes: RouteObject[],
  options: { at?: string; seed?: [queryKey: unknown[], data: unknown][] } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  for (const [key, data] of options.seed ?? []) queryClient.setQueryData(key, data);
  const router = createMemoryRouter(routes, { initialEntries: [options.at ?? routes[0]?.path ?? '/'] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, queryClient };
}

/** Answers every request of the screen with `answer(url, init)`; the returned mock tells what was asked. */
export function stubFetch(answer: (url: string, init?: RequestInit) => Response | Promise<Response>) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
    answer(input instanceof Request ? input.url : input.toString(), init),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
