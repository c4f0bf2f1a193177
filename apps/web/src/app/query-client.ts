import { QueryClient } from '@tanstack/react-query';
import { retryDelay, shouldRetry } from '@/lib/api-client';

function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay, staleTime: 10_000, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}

/** The app's one client: the router's loaders start requests in it that the screens then read. */
export const queryClient = createQueryClient();
