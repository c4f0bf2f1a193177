import { AlertTriangle, LinkIcon, Settings2 } from 'lucide-react';
import { HEALTH_CHECK_NOT_FOUND } from '@pulsecheck/shared/health-checks/rules';
import { createContext, useContext, type ReactNode } from 'react';
import { Link, useLocation, useRouteError, isRouteErrorResponse } from 'react-router';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { say, t } from '@/lib/i18n';

/**
 * True inside a layout that draws the page around its screens (the admin area): an error screen shown there
 * fills the layout's content area instead of being a page of its own.
 */
export const InsideLayout = createContext(false);

function ErrorLayout({
  icon,
  title,
  message,
  actions,
}: {
  icon: ReactNode;
  title: string;
  message: ReactNode;
  actions: ReactNode;
}) {
  const inside = useContext(InsideLayout);
  const Frame = inside ? 'div' : 'main';
  return (
    <Frame className={cn('flex items-center justify-center', inside ? 'py-12' : 'min-h-screen p-4')}>
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-red-50 text-red-600">
          {icon}
        </div>
        <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
        <div className="mt-2 text-sm text-slate-600">{message}</div>
        <div className="mt-6 flex flex-wrap justify-center gap-3">{actions}</div>
      </div>
    </Frame>
  );
}

const reload = () => window.location.reload();

/** The generic screen: 'An unexpected error occurred' with 'Try Again' (reloads). */
export function UnexpectedError({ message }: { message?: string }) {
  return (
    <ErrorLayout
      icon={<AlertTriangle aria-hidden="true" />}
      title={t('errors.unexpectedTitle')}
      message={message === undefined ? t('errors.unexpectedMessage') : say(message)}
      actions={
        <>
          <Button onClick={reload}>{t('common.tryAgain')}</Button>
          <Button variant="secondary" asChild>
            <Link to="/">{t('errors.returnHome')}</Link>
          </Button>
        </>
      }
    />
  );
}

function stateMessage(state: unknown): string | undefined {
  if (
    typeof state === 'object' &&
    state !== null &&
    'message' in state &&
    typeof state.message === 'string'
  ) {
    return state.message;
  }
  return undefined;
}

/** /error: what went wrong (handed over by navigation) and a way back. */
export function ErrorPage() {
  const location = useLocation();
  return <UnexpectedError message={stateMessage(location.state)} />;
}

/** /invalid-link */
export function InvalidLinkPage() {
  const location = useLocation();
  return (
    <ErrorLayout
      icon={<LinkIcon aria-hidden="true" />}
      title={say(HEALTH_CHECK_NOT_FOUND)}
      message={say(stateMessage(location.state) ?? t('errors.invalidLinkMessage'))}
      actions={
        <Button asChild>
          <Link to="/">{t('errors.returnHome')}</Link>
        </Button>
      }
    />
  );
}

/** /setup-error */
export function SetupErrorPage() {
  return (
    <ErrorLayout
      icon={<Settings2 aria-hidden="true" />}
      title={t('errors.setupTitle')}
      message={t('errors.setupMessage')}
      actions={
        <>
          <Button asChild>
            <Link to="/login">{t('errors.logInAgain')}</Link>
          </Button>
          <Button variant="secondary" asChild>
            <Link to="/">{t('errors.returnHome')}</Link>
          </Button>
        </>
      }
    />
  );
}

/**
 * The error boundary of every screen's route: a crash while loading or rendering one screen shows the generic
 * screen (its Try Again reloads, which also fetches code that failed to load) and leaves the rest of the app,
 * such as the admin layout around it, working.
 */
export function RouteErrorBoundary() {
  return <UnexpectedError />;
}

/** Top-level error boundary of the router: the last resort, should a route's own boundary fail. */
export function RootErrorBoundary() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? say(error.message)
      : t('errors.unexpectedTitle');
  return (
    <ErrorLayout
      icon={<AlertTriangle aria-hidden="true" />}
      title={t('errors.rootTitle')}
      message={message}
      actions={
        <>
          <Button onClick={reload}>{t('errors.refreshPage')}</Button>
          <Button variant="secondary" asChild>
            <a href="/admin/dashboard">{t('errors.goToDashboard')}</a>
          </Button>
        </>
      }
    />
  );
}
