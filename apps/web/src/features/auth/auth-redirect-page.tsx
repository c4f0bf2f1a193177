import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import { useSearchParams } from 'react-router';
import { FullPageSpinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { joinHealthCheck, useDecideOnce, useRefreshSession } from './api';
import { t } from '@/lib/i18n';

const JOIN_PATH = /^\/join\/([0-9a-f-]{36})$/i;

/**
 * /auth/redirect: where e-mailed links land (spec section 4, auth redirect logic). Decides once, then replaces
 * itself with the next screen.
 */
export function AuthRedirectPage() {
  const [params] = useSearchParams();
  const refreshSession = useRefreshSession();

  useDecideOnce(async (go) => {
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
          error instanceof ApiError && error.status === 409 ? error.message : t('auth.joinFailed');
        return go('/error', { message });
      }
    }
    if (user.setupStatus === 'pending_setup') return go('/auth/admin-confirmation');
    return go(user.home);
  });

  return <FullPageSpinner label={t('auth.signingYouIn')} />;
}
