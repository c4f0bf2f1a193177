import { Repeat } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/dates';
import { t } from '@/lib/i18n';
import { useMyLoopRounds } from './api';

/**
 * The signed-in member's open loop rounds, on /dashboard: each with its loop, when it closes, and a way to
 * answer (or that they have). Says nothing when there are none, so the page stays about what there is.
 */
export function MyLoopRounds() {
  const rounds = useMyLoopRounds();
  if (rounds.isPending) return null;
  if (rounds.isError) {
    return (
      <p role="alert" className="mb-6 text-sm text-red-700">
        {t('loops.myRoundsFailed', { message: rounds.error.message })}{' '}
        <button type="button" className="underline" onClick={() => void rounds.refetch()}>
          {t('common.tryAgain')}
        </button>
      </p>
    );
  }
  if (rounds.data.length === 0) return null;
  return (
    <section aria-labelledby="my-loop-rounds" className="mb-8">
      <h2 id="my-loop-rounds" className="mb-3 text-lg font-semibold text-slate-900">
        {t('loops.myRoundsTitle')}
      </h2>
      <ul className="grid gap-4 md:grid-cols-2">
        {rounds.data.map((round) => (
          <li
            key={round.roundId}
            className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
          >
            <div className="flex items-start justify-between gap-3">
              <div>
                <h3 className="text-lg font-semibold text-slate-900">{round.title}</h3>
                <p className="text-sm text-slate-600">{round.workspaceName}</p>
              </div>
              <Repeat className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
            </div>
            <div className="flex flex-wrap gap-2">
              <Badge tone={round.answered ? 'green' : 'blue'}>
                {round.answered ? t('loops.myRoundAnswered') : t('loops.myRoundWaiting')}
              </Badge>
              <Badge tone="neutral">{t('loops.roundNumber', { number: round.number })}</Badge>
            </div>
            <p className="text-sm text-slate-700">
              {t('loops.openUntil', { date: formatDateTime(round.closesAt) })}
            </p>
            {!round.answered && (
              <Button className="self-start" asChild>
                <Link
                  to={round.link}
                  aria-label={t('loops.answerNowLabel', { title: round.title, number: round.number })}
                >
                  {t('loops.answerNow')}
                </Link>
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
