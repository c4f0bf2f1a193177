import type { CurrentUser } from '@pulsecheck/shared/auth/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiGet } from './api-client';

export type { CurrentUser };

export const sessionQueryKey = ['session'] as const;

/** The signed-in user, or null when signed out. */
export async function fetchSession(): Promise<CurrentUser | null> {
  try {
    return (await apiGet<{ user: CurrentUser }>('/me')).user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const sessionQuery = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: fetchSession,
  staleTime: 60_000,
});

export function useSession() {
  return useQuery(sessionQuery);
}
