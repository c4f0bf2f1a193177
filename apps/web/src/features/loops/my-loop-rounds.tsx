import { Repeat } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/dates';
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
        Your open loop rounds could not be loaded: {rounds.error.message}{' '}
        <button type="button" className="underline" onClick={() => void rounds.refetch()}>
          Try Again
        </button>
      </p>
    );
  }
  if (rounds.data.length === 0) return null;
  return (
    <section aria-labelledby="my-loop-rounds" className="mb-8">
      <h2 id="my-loop-rounds" className="mb-3 text-lg font-semibold text-slate-900">
        Open Loop Rounds
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
                {round.answered ? 'Answered' : 'Waiting for your answer'}
              </Badge>
              <Badge tone="neutral">Round {round.number}</Badge>
            </div>
            <p className="text-sm text-slate-700">Open until {formatDateTime(round.closesAt)}</p>
            {!round.answered && (
              <Button className="self-start" asChild>
                <Link to={round.link} aria-label={`Answer Now: ${round.title}, round ${round.number}`}>
                  Answer Now
                </Link>
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
