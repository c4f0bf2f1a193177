import type { CurrentUser, LoginInput, LoginResponse } from '@pulsecheck/shared/auth/schemas';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '@/components/ui/toaster';
import { ApiError, apiGet, apiPost } from './api-client';
import { errorMessage } from './forms';
import { t } from './i18n';

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

/**
 * Signs in with the password (POST /login): the user (the caller stores them with `replaceSession`), or
 * `twoFactorRequired` when the second step follows (features/auth/sign-in-steps.tsx).
 */
export const logIn = (body: LoginInput) => apiPost<LoginResponse>('/login', body);

/**
 * Whether the session in this tab ended by its Logout button: the screen then sends to /login without a way back
 * to itself, so the next person to sign in on this device starts from their own home (require-auth.tsx).
 */
let loggedOutHere = false;
export const loggedOutInThisTab = () => loggedOutHere;

/**
 * A new session (or none): `user` becomes the cached session and everything cached for the previous one is
 * dropped, so no screen shows another account's data.
 */
export function replaceSession(queryClient: QueryClient, user: CurrentUser | null) {
  if (user) loggedOutHere = false;
  queryClient.setQueryData(sessionQueryKey, user);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
}

/**
 * Logout, the same everywhere: ends the session on the server, forgets the cached session and data, then goes
 * to `redirectTo` (stays on the page without it). A failure is shown as a toast and the user stays signed in.
 */
export function useLogout({ redirectTo }: { redirectTo?: string } = {}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const logOut = async () => {
    setPending(true);
    try {
      await apiPost('/logout');
    } catch (error) {
      toast.error(errorMessage(error, t('layout.logoutFailed')));
      setPending(false);
      return;
    }
    loggedOutHere = true;
    replaceSession(queryClient, null);
    if (redirectTo) await navigate(redirectTo, { replace: true });
    else setPending(false);
  };
  return { logOut: () => void logOut(), pending };
}
