import { useQuery } from '@tanstack/react-query';
import { ApiError, apiGet } from './api-client';

export type CurrentUser = {
  id: string;
  email: string;
  name: string;
  setupStatus: string | null;
  home: string;
  activeWorkspaceId: string | null;
};

export const sessionQueryKey = ['session'] as const;

/** The signed-in user, or null when signed out. */
export async function fetchSession(): Promise<CurrentUser | null> {
  try {
    return (await apiGet<{ user: CurrentUser }>('/me')).user;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 404)) return null;
    throw error;
  }
}

export function useSession() {
  return useQuery({ queryKey: sessionQueryKey, queryFn: fetchSession, staleTime: 60_000 });
}
