import { RETURN_TO_PARAM } from '@pulsecheck/shared/auth/links';
import type { Mailed } from '@pulsecheck/shared/mail/delivery';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { apiPost } from '@/lib/api-client';
import { fetchSession, sessionQueryKey } from '@/lib/session';

export const signUpAdmin = (body: unknown) => apiPost<Mailed>('/signup', body);
export const requestPasswordReset = (email: string) => apiPost<Mailed>('/password/forgot', { email });
export const resetPassword = (body: unknown) => apiPost<{ ok: true }>('/password/reset', body);
export const resendVerification = (email: string) => apiPost<Mailed>('/verification/resend', { email });
export const setUpOrganization = () => apiPost<{ redirectTo: string }>('/onboarding/setup');
export const joinHealthCheck = (id: string) =>
  apiPost<{ participantId: string; redirectTo: string }>(`/health-checks/${encodeURIComponent(id)}/join`);

/** Fetches the session afresh and stores it, so guards see the new state before we navigate. */
export function useRefreshSession() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const user = await fetchSession();
    queryClient.setQueryData(sessionQueryKey, user);
    return user;
  }, [queryClient]);
}

type Go = (to: string, state?: unknown) => void;

/**
 * The screens that only decide where to go (e-mailed links, organisation set-up): `decide` runs once after the
 * first render (not again under StrictMode or on re-renders) and sends the user on with `go`, which replaces the
 * screen in the history.
 */
export function useDecideOnce(decide: (go: Go) => Promise<void>) {
  const navigate = useNavigate();
  const started = useRef(false);
  const latest = useRef(decide);
  useEffect(() => {
    latest.current = decide;
  });
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void latest.current((to, state) => void navigate(to, { replace: true, state }));
  }, [navigate]);
}

/** A same-site path handed over by the guard, or null: never an open redirect. */
/** A path of this app (never another origin: not `//host`, not `/\\host`), or null. */
const appPath = (path: string) =>
  path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path : null;

/**
 * Where a sign-in goes next: the page that sent the person to /login (router state `from`), or the `returnTo` of
 * an e-mailed /login link (the 'you already have an account' e-mail of a participant sign-up returns to the check).
 */
export function safeReturnPath(state: unknown, search?: URLSearchParams): string | null {
  if (typeof state === 'object' && state !== null && 'from' in state && typeof state.from === 'string') {
    const from = appPath(state.from);
    if (from) return from;
  }
  const returnTo = search?.get(RETURN_TO_PARAM);
  return returnTo ? appPath(returnTo) : null;
}

export function stateText(state: unknown, key: 'message' | 'error'): string | null {
  if (typeof state === 'object' && state !== null && key in state) {
    const value = (state as Record<string, unknown>)[key];
    if (typeof value === 'string') return value;
  }
  return null;
}
