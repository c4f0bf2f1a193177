import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/schemas';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { FullPageSpinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { joinHealthCheck, useRefreshSession } from './api';

const JOIN_PATH = /^\/join\/([0-9a-f-]{36})$/i;

/**
 * /auth/redirect: where e-mailed links land (spec section 4, auth redirect logic). Decides once, then replaces
 * itself with the next screen.
 */
export function AuthRedirectPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const go = (to: string, state?: unknown) => void navigate(to, { replace: true, state });
    void (async () => {
      if (params.has('error')) return go('/login', { error: AUTH_MESSAGES.verifyLinkInvalid });
      const joinTarget = JOIN_PATH.exec(params.get('redirect_to') ?? '');
      if (joinTarget) return go(`/join/${joinTarget[1]}`);
      let user;
      try {
        user = await refreshSession();
      } catch {
        return go('/error');
      }
      if (!user) return go('/login');
      if (user.pendingJoinHealthCheckId) {
        const id = user.pendingJoinHealthCheckId;
        try {
          await joinHealthCheck(id);
          await refreshSession();
          return go(`/health-check/${id}/voting`);
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return go('/invalid-link');
          const message =
            error instanceof ApiError && error.status === 409
              ? error.message
              : 'Failed to set up participation. Please try again or contact support.';
          return go('/error', { message });
        }
      }
      if (user.setupStatus === 'pending_setup') return go('/auth/admin-confirmation');
      return go(user.home);
    })();
  }, [navigate, params, refreshSession]);

  return <FullPageSpinner label="Signing you in..." />;
}
