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
import { say, t } from '@/lib/i18n';
import { LOOP_ACTIONS, useCompletionStatus, useLiveLoop, useLoopAction, type LoopActionResults } from './api';
import { answeredOf, percentText, timeLeft } from './format';
import { LoopHeader, LoopLoadFailed } from './loop-header';

/** /admin/completion-status/{loopId}: who has answered the open round, its time left, the round actions, history. */
export function CompletionStatusPage() {
  const { loopId = '' } = useParams();
  const status = useCompletionStatus(loopId);
  useLiveLoop(loopId);
  if (status.isPending) return <Spinner label={t('loopStatus.loading')} className="py-16" />;
  if (status.isError) {
    return (
      <LoopLoadFailed
        error={status.error}
        title={t('loopStatus.loadFailed')}
        onRetry={() => void status.refetch()}
      />
    );
  }

  return <Completion data={status.data} receivedAt={status.dataUpdatedAt} />;
}

type Action = keyof typeof LOOP_ACTIONS;

/** The actions that ask first (a function: the catalogue is loaded after this module). */
const confirmations = (): Partial<
  Record<Action, { title: string; text: (round: number | null) => string; button: string }>
> => ({
  closeRound: {
    title: t('loopStatus.closeRoundTitle'),
    text: (round) => t('loopStatus.closeRoundText', { round: round ?? '' }),
    button: t('loopStatus.closeRoundButton'),
  },
  startRound: {
    title: t('loopStatus.startRoundTitle'),
    text: (round) =>
      round === null ? t('loopStatus.startRoundTextFirst') : t('loopStatus.startRoundText', { round }),
    button: t('loopStatus.startRoundButton'),
  },
  stop: {
    title: t('loopStatus.stopTitle'),
    text: () => t('loopStatus.stopText'),
    button: t('loopStatus.stopLoop'),
  },
});

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
    pause: () => t('loopStatus.paused'),
    resume: () => t('loopStatus.resumed'),
    stop: () => t('loopStatus.stopped'),
    startRound: (result) =>
      t('loopStatus.roundOpened', { number: (result as LoopActionResults['startRound']).round.number }),
    closeRound: (result) =>
      t('loopStatus.roundClosed', { number: (result as LoopActionResults['closeRound']).round.number }),
    remind: (result) => {
      const { reminded, mail } = result as LoopActionResults['remind'];
      if (reminded === 0) return t('loopStatus.nobodyToRemind');
      return mail === 'off'
        ? t('loopStatus.remindedInApp', { count: reminded, notice: say(MAIL_MESSAGES.off) })
        : t('loopStatus.reminderSent', { count: reminded });
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
        toast.error(errorMessage(error, t('loopStatus.actionFailed')));
      },
    });
  const asking = confirmations();
  const ask = (action: Action) => (asking[action] ? setConfirming(action) : run(action));
  const confirm = confirming ? asking[confirming] : undefined;
  const canRun = loop.canChange && loop.status !== 'completed';

  return (
    <div className="flex flex-col gap-6">
      <LoopHeader
        loop={loop}
        detail={
          <>
            {say(loop.schedule)}
            {loop.anonymous ? t('loopStatus.detailAnonymous') : t('loopStatus.detailNamed')}
            {loop.nextRoundAt && t('loopStatus.detailNextRound', { date: formatDateTime(loop.nextRoundAt) })}
          </>
        }
      />
      {loop.status === 'paused' && <Notice tone="warning">{t('loopStatus.pausedNotice')}</Notice>}
      {loop.status === 'completed' && <Notice tone="info">{t('loopStatus.endedNotice')}</Notice>}

      {current ? (
        <Card>
          <CardHeader>
            <CardTitle>{t('loops.roundNumber', { number: current.number })}</CardTitle>
            <CardDescription>
              {t('loopStatus.openedCloses', {
                opened: formatDateTime(current.openedAt),
                closes: formatDateTime(current.closesAt),
              })}
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-5">
            <div className="grid gap-4 sm:grid-cols-3">
              <Figure
                label={t('loopStatus.responseRate')}
                value={percentText(current.responseRate)}
                testId="response-rate"
              >
                <ProgressBar
                  value={current.responseRate}
                  tone={progressColour(current.responseRate)}
                  label={t('loopStatus.responseRate')}
                />
              </Figure>
              <Figure
                label={t('loopStatus.answered')}
                value={answeredOf(current.answered, current.audience)}
                testId="answered"
              />
              <Figure
                label={t('loopStatus.timeLeft')}
                value={left === null ? '' : timeLeft(left)}
                testId="time-left"
              >
                {current.remindedAt && (
                  <p className="text-xs text-slate-600">
                    {t('loopStatus.remindedAt', { date: formatDateTime(current.remindedAt) })}
                  </p>
                )}
              </Figure>
            </div>
            <div className="grid gap-4 md:grid-cols-2">
              <People
                id="people-answered"
                title={t('loopStatus.answered')}
                people={current.answeredBy}
                empty={t('loopStatus.nobodyAnswered')}
              />
              <People
                id="people-not-answered-yet"
                title={t('loopStatus.notAnswered')}
                people={current.notAnswered}
                empty={t('loopStatus.everyoneAnswered')}
              />
            </div>
            {loop.anonymous && <p className="text-xs text-slate-600">{t('loopStatus.anonymousNote')}</p>}
          </CardContent>
        </Card>
      ) : (
        <StateCard
          title={t('loopStatus.noRoundOpen')}
          message={
            loop.status === 'completed'
              ? t('loopStatus.noRoundEnded')
              : loop.nextRoundAt
                ? t('loopStatus.noRoundNext', { date: formatDateTime(loop.nextRoundAt) })
                : t('loopStatus.noRoundPaused')
          }
        />
      )}

      {canRun && (
        <section aria-labelledby="round-actions" className="flex flex-col gap-3">
          <h2 id="round-actions" className="text-lg font-semibold text-slate-900">
            {t('loopStatus.actions')}
          </h2>
          <div className="flex flex-wrap gap-2">
            {current && current.status === 'open' && (
              <>
                <Button variant="secondary" disabled={busy} onClick={() => ask('remind')}>
                  <BellRing aria-hidden="true" />
                  {t('loopStatus.sendReminder')}
                </Button>
                <Button variant="secondary" disabled={busy} onClick={() => ask('closeRound')}>
                  <Square aria-hidden="true" />
                  {t('loopStatus.closeRoundNow')}
                </Button>
              </>
            )}
            {loop.status === 'active' && (
              <Button variant="secondary" disabled={busy} onClick={() => ask('startRound')}>
                <SkipForward aria-hidden="true" className="rtl:-scale-x-100" />
                {t('loopStatus.startNextRoundNow')}
              </Button>
            )}
            {loop.status === 'active' ? (
              <Button variant="secondary" disabled={busy} onClick={() => ask('pause')}>
                <Pause aria-hidden="true" />
                {t('loopStatus.pauseLoop')}
              </Button>
            ) : (
              <Button variant="secondary" disabled={busy} onClick={() => ask('resume')}>
                <Play aria-hidden="true" className="rtl:-scale-x-100" />
                {t('loopStatus.resumeLoop')}
              </Button>
            )}
            <Button variant="secondary" asChild>
              <Link to={`/admin/configure-loop/${loop.id}`}>
                <Pencil aria-hidden="true" />
                {t('loopStatus.editLoop')}
              </Link>
            </Button>
            <Button variant="danger" disabled={busy} onClick={() => ask('stop')}>
              <StopCircle aria-hidden="true" />
              {t('loopStatus.stopLoop')}
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
                {t('common.cancel')}
              </Button>
              <Button
                variant={confirming === 'stop' ? 'danger' : 'primary'}
                disabled={busy}
                onClick={() => run(confirming)}
              >
                {busy ? t('loopStatus.working') : confirm.button}
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

function People({
  id,
  title,
  people,
  empty,
}: {
  id: string;
  title: string;
  people: Person[];
  empty: string;
}) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 p-4">
      <h3 id={id} className="text-sm font-semibold text-slate-900">
        {t('loopStatus.peopleTitle', { title, count: people.length })}
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
        {t('loopStatus.rounds')}
      </h2>
      {rounds.length === 0 ? (
        <p className="text-sm text-slate-600">{t('loopStatus.noRoundYet')}</p>
      ) : (
        <TableScroll label={t('loopStatus.rounds')} className="rounded-xl border border-slate-200 bg-white">
          <table className="w-full text-start text-sm">
            <caption className="sr-only">{t('loopStatus.historyCaption')}</caption>
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                {[
                  t('loopStatus.columnRound'),
                  t('loopStatus.columnOpened'),
                  t('loopStatus.columnStatus'),
                  t('loopStatus.columnResponses'),
                  t('loopStatus.columnRate'),
                ].map((header) => (
                  <th key={header} scope="col" className="px-4 py-2 font-medium">
                    {header}
                  </th>
                ))}
                <th scope="col" className="px-4 py-2 font-medium">
                  <span className="sr-only">{t('loops.tabResults')}</span>
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
                  <td className="px-4 py-2">
                    {round.status === 'open' ? t('loopStatus.open') : t('loopStatus.closed')}
                  </td>
                  <td className="px-4 py-2">{answeredOf(round.answered, round.audience)}</td>
                  <td className="px-4 py-2" data-testid={`round-${round.number}-rate`}>
                    {percentText(round.responseRate)}
                  </td>
                  <td className="px-4 py-2">
                    <Link
                      className="text-brand-700 underline"
                      to={`${LOOP_LINKS.results(loopId)}?round=${round.id}`}
                      aria-label={t('loopStatus.resultsOfRound', { number: round.number })}
                    >
                      {t('loops.tabResults')}
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
