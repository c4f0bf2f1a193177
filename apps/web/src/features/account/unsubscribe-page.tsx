import { ACCOUNT_MESSAGES, unsubscribedMessage } from '@pulsecheck/shared/account/schemas';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Logo } from '@/components/ui/logo';
import { Spinner } from '@/components/ui/spinner';
import { say, t, tRich } from '@/lib/i18n';
import { unsubscribe } from './api';

/**
 * The one-click unsubscribe of an e-mail (survey reminders, phase changes, results ready): the link's token
 * names the settings, and the page says which it switched off. The page posts the signed token when it opens, so a mail
 * scanner that only fetches the link changes nothing, while the person's click is all it takes.
 */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const mutation = useMutation({ mutationFn: unsubscribe });
  const { mutate } = mutation;
  useEffect(() => {
    if (token) mutate(token);
  }, [token, mutate]);
  const done = mutation.isSuccess;
  const failed = !token || mutation.isError;
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-slate-50 px-4 py-10">
      <Logo />
      <main className="mt-6 w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">
          {done ? t('unsubscribe.done') : failed ? t('unsubscribe.failed') : t('unsubscribe.pending')}
        </h1>
        {!done && !failed && <Spinner className="mt-4" label={t('unsubscribe.turningOff')} />}
        {done && <p className="mt-3 text-slate-700">{unsubscribedMessage(mutation.data.unsubscribed, t)}</p>}
        {failed && (
          <p role="alert" className="mt-3 text-red-800">
            {mutation.error?.message ?? say(ACCOUNT_MESSAGES.unsubscribeInvalid)}
          </p>
        )}
        <p className="mt-6 text-sm text-slate-600">
          {tRich('unsubscribe.changeSettings', {
            link: (chunks) => (
              <Link to="/account-settings/notifications" className="text-brand-700 underline">
                {chunks}
              </Link>
            ),
          })}
        </p>
      </main>
    </div>
  );
}
