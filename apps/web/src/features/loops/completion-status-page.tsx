import type { CompletionStatus, Person } from '@pulsecheck/shared/loops/contract';
import { LOOP_LINKS } from '@pulsecheck/shared/loops/links';
import { MAIL_MESSAGES } from '@pulsecheck/shared/mail/delivery';
import { progressColour } from '@pulsecheck/shared/health-checks/rules';
import { BellRing, Pause, Pencil, Play, SkipForward, Square, StopCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Notice } from '@/components/ui/notice';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Spinner } from '@/components/ui/spinner';
import { StateCard } from '@/components/ui/state-card';
import { TableScroll } from '@/components/ui/table-scroll';
import { TOAST, toast } from '@/components/ui/toaster';
import { formatDateTime } from '@/lib/dates';
import { errorMessage } from '@/lib/forms';
import { LOOP_ACTIONS, useCompletionStatus, useLiveLoop, useLoopAction, type LoopActionResults } from './api';
import { answeredOf, membersWord, timeLeft } from './format';
import { LoopHeader, LoopLoadFailed } from './loop-header';

/** /admin/completion-status/{loopId}: who has answered the open round, its time left, the round actions, history. */
export function CompletionStatusPage() {
  const { loopId = '' } = useParams();
  const status = useCompletionStatus(loopId);
  useLiveLoop(loopId);
  if (status.isPending) return <Spinner label="Loading completion status..." className="py-16" />;
  if (status.isError) {
    return (
      <LoopLoadFailed
        error={status.error}
        title="Failed to load the completion status"
        onRetry={() => void status.refetch()}
      />
    );
  }

  return <Completion data={status.data} receivedAt={status.dataUpdatedAt} />;
}

type Action = keyof typeof LOOP_ACTIONS;

const CONFIRM: Partial<
  Record<Action, { title: string; text: (round: number | null) => string; button: string }>
> = {
  closeRound: {
    title: 'Close Round Now?',
    text: (round) =>
      `Round ${round ?? ''} stops taking answers now. Its results show if it has enough responses. This cannot be undone.`,
    button: 'Close Round',
  },
  startRound: {
    title: 'Start Next Round Now?',
    text: (round) =>
      round === null
        ? 'A new round opens now for everyone in the audience.'
        : `Round ${round} closes first, then a new round opens for everyone in the audience.`,
    button: 'Start Round',
  },
  stop: {
    title: 'Stop this loop?',
    text: () =>
      'No more rounds open, and an open round closes now. Results and insights stay available. A stopped loop cannot be restarted.',
    button: 'Stop Loop',
  },
};

/** The time left, counted down in the browser from the server's figure (so the browser's clock does not matter). */
function useTimeLeft(ms: number | null, receivedAt: number) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (ms === null) return;
    const timer = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, [ms]);
  return ms === null ? null : ms - Math.max(0, now - receivedAt);
}

function Completion({ data, receivedAt }: { data: CompletionStatus; receivedAt: number }) {
  const { loop, current, history } = data;
  const [confirming, setConfirming] = useState<Action | null>(null);
  const left = useTimeLeft(current?.timeLeftMs ?? null, receivedAt);
  const roundId = current?.id ?? '';
  const actions = {
    pause: useLoopAction<LoopActionResults['pause']>(loop.id, LOOP_ACTIONS.pause),
    resume: useLoopAction<LoopActionResults['resume']>(loop.id, LOOP_ACTIONS.resume),
    stop: useLoopAction<LoopActionResults['stop']>(loop.id, LOOP_ACTIONS.stop),
    startRound: useLoopAction<LoopActionResults['startRound']>(loop.id, LOOP_ACTIONS.startRound),
    closeRound: useLoopAction<LoopActionResults['closeRound']>(loop.id, LOOP_ACTIONS.closeRound),
    remind: useLoopAction<LoopActionResults['remind']>(loop.id, LOOP_ACTIONS.remind),
  };
  const busy = Object.values(actions).some((action) => action.isPending);

  const done: Record<Action, (result: unknown) => string> = {
    pause: () => 'Loop paused: no round opens and the open round takes no answers until you resume it',
    resume: () => 'Loop resumed',
    stop: () => 'Loop stopped',
    startRound: (result) => `Round ${(result as LoopActionResults['startRound']).round.number} opened`,
    closeRound: (result) => `Round ${(result as LoopActionResults['closeRound']).round.number} closed`,
    remind: (result) => {
      const { reminded, mail } = result as LoopActionResults['remind'];
      if (reminded === 0) return 'Nobody to remind: everyone has answered or turned survey reminders off';
      return mail === 'off'
        ? `${membersWord(reminded)} reminded in the app. ${MAIL_MESSAGES.off}`
        : `Reminder sent to ${membersWord(reminded)}`;
    },
  };

  const run = (action: Action) =>
    actions[action].mutate(roundId, {
      onSuccess: (result) => {
        setConfirming(null);
        toast.success(done[action](result), { duration: TOAST.save });
      },
      onError: (error) => {
        setConfirming(null);
        toast.error(errorMessage(error, 'That did not work. Please try again.'));
      },
    });
  const ask = (action: Action) => (CONFIRM[action] ? setConfirming(action) : run(action));
  const confirm = confirming ? CONFIRM[confirming] : undefined;
  const canRun = loop.canChange && loop.status !== 'completed';

  return (
    <div className="flex flex-col gap-6">
      <LoopHeader
        loop={loop}
        detail={
          <>
            {loop.schedule}
            {loop.anonymous ? ' · Anonymous' : ' · Answers carry names'}
            {loop.nextRoundAt && ` · Next round opens ${formatDateTime(loop.nextRoundAt)}`}
          </>
        }
      />
      {loop.status === 'paused' && (
        <Notice tone="warning">
          This loop is paused: no round opens and the open round takes no answers until you resume it.
        </Notice>
      )}
      {loop.status === 'completed' && (
        <Notice tone="info">This loop has ended. Its results and insights stay available.</Notice>
      )}

      {current ? (
        <Card>
          <CardHeader>
            <CardTitle>Round {current.number}</CardTitle>
            <CardDescription>
              Opened {formatDateTime(current.openedAt)} · closes {formatDateTime(current.closesAt)}
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-5">
            <div className="grid gap-4 sm:grid-cols-3">
              <Figure label="Response rate" value={`${current.responseRate}%`} testId="response-rate">
                <ProgressBar
                  value={current.responseRate}
                  tone={progressColour(current.responseRate)}
                  label="Response rate"
                />
              </Figure>
              <Figure
                label="Answered"
                value={answeredOf(current.answered, current.audience)}
                testId="answered"
              />
              <Figure label="Time left" value={left === null ? '' : timeLeft(left)} testId="time-left">
                {current.remindedAt && (
                  <p className="text-xs text-slate-600">Reminded {formatDateTime(current.remindedAt)}</p>
                )}
              </Figure>
            </div>
            <div className="grid gap-4 md:grid-cols-2">
              <People title="Answered" people={current.answeredBy} empty="Nobody has answered yet." />
              <People
                title="Not answered yet"
                people={current.notAnswered}
                empty="Everyone in the audience has answered."
              />
            </div>
            {loop.anonymous && (
              <p className="text-xs text-slate-600">
                Only who has answered is shown here, never what they said. The round’s results show once it
                closes, if it has enough responses.
              </p>
            )}
          </CardContent>
        </Card>
      ) : (
        <StateCard
          title="No round is open"
          message={
            loop.status === 'completed'
              ? 'This loop has ended, so no more rounds open.'
              : loop.nextRoundAt
                ? `The next round opens ${formatDateTime(loop.nextRoundAt)}.`
                : 'No round is scheduled while the loop is paused.'
          }
        />
      )}

      {canRun && (
        <section aria-labelledby="round-actions" className="flex flex-col gap-3">
          <h2 id="round-actions" className="text-lg font-semibold text-slate-900">
            Actions
          </h2>
          <div className="flex flex-wrap gap-2">
            {current && current.status === 'open' && (
              <>
                <Button variant="secondary" disabled={busy} onClick={() => ask('remind')}>
                  <BellRing aria-hidden="true" />
                  Send Reminder
                </Button>
                <Button variant="secondary" disabled={busy} onClick={() => ask('closeRound')}>
                  <Square aria-hidden="true" />
                  Close Round Now
                </Button>
              </>
            )}
            {loop.status === 'active' && (
              <Button variant="secondary" disabled={busy} onClick={() => ask('startRound')}>
                <SkipForward aria-hidden="true" />
                Start Next Round Now
              </Button>
            )}
            {loop.status === 'active' ? (
              <Button variant="secondary" disabled={busy} onClick={() => ask('pause')}>
                <Pause aria-hidden="true" />
                Pause Loop
              </Button>
            ) : (
              <Button variant="secondary" disabled={busy} onClick={() => ask('resume')}>
                <Play aria-hidden="true" />
                Resume Loop
              </Button>
            )}
            <Button variant="secondary" asChild>
              <Link to={`/admin/configure-loop/${loop.id}`}>
                <Pencil aria-hidden="true" />
                Edit Loop
              </Link>
            </Button>
            <Button variant="danger" disabled={busy} onClick={() => ask('stop')}>
              <StopCircle aria-hidden="true" />
              Stop Loop
            </Button>
          </div>
        </section>
      )}

      <History loopId={loop.id} rounds={history} />

      <Dialog open={confirm !== undefined} onOpenChange={(open) => !open && setConfirming(null)}>
        {confirm && confirming && (
          <DialogContent title={confirm.title} description={confirm.text(current?.number ?? null)}>
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => setConfirming(null)}>
                Cancel
              </Button>
              <Button
                variant={confirming === 'stop' ? 'danger' : 'primary'}
                disabled={busy}
                onClick={() => run(confirming)}
              >
                {busy ? 'Working...' : confirm.button}
              </Button>
            </div>
          </DialogContent>
        )}
      </Dialog>
    </div>
  );
}

function Figure({
  label,
  value,
  testId,
  children,
}: {
  label: string;
  value: string;
  testId: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-slate-200 p-4">
      <p className="text-sm text-slate-600">{label}</p>
      <p className="text-2xl font-semibold text-slate-900" data-testid={testId}>
        {value}
      </p>
      {children}
    </div>
  );
}

function People({ title, people, empty }: { title: string; people: Person[]; empty: string }) {
  const id = `people-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 p-4">
      <h3 id={id} className="text-sm font-semibold text-slate-900">
        {title} ({people.length})
      </h3>
      {people.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="mt-2 flex max-h-72 flex-col gap-1 overflow-y-auto text-sm text-slate-800">
          {people.map((person) => (
            <li key={person.memberId}>{person.name}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function History({ loopId, rounds }: { loopId: string; rounds: CompletionStatus['history'] }) {
  return (
    <section aria-labelledby="round-history" className="flex flex-col gap-3">
      <h2 id="round-history" className="text-lg font-semibold text-slate-900">
        Rounds
      </h2>
      {rounds.length === 0 ? (
        <p className="text-sm text-slate-600">No round has opened yet.</p>
      ) : (
        <TableScroll label="Rounds" className="rounded-xl border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">
              Every round of the loop with its response rate, newest first
            </caption>
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                {['Round', 'Opened', 'Status', 'Responses', 'Rate'].map((header) => (
                  <th key={header} scope="col" className="px-4 py-2 font-medium">
                    {header}
                  </th>
                ))}
                <th scope="col" className="px-4 py-2 font-medium">
                  <span className="sr-only">Results</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rounds.map((round) => (
                <tr key={round.id}>
                  <th scope="row" className="px-4 py-2 font-medium text-slate-900">
                    {round.number}
                  </th>
                  <td className="px-4 py-2 whitespace-nowrap">{formatDateTime(round.openedAt)}</td>
                  <td className="px-4 py-2">{round.status === 'open' ? 'Open' : 'Closed'}</td>
                  <td className="px-4 py-2">{answeredOf(round.answered, round.audience)}</td>
                  <td className="px-4 py-2" data-testid={`round-${round.number}-rate`}>
                    {round.responseRate}%
                  </td>
                  <td className="px-4 py-2">
                    <Link
                      className="text-brand-700 underline"
                      to={`${LOOP_LINKS.results(loopId)}?round=${round.id}`}
                      aria-label={`Results of round ${round.number}`}
                    >
                      Results
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
