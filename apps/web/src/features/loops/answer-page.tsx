import { LanguageMenu } from '@/components/language-menu';
import type { RoundToAnswer } from '@pulsecheck/shared/loops/contract';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import type { Branding } from '@pulsecheck/shared/branding/rules';
import { BrandLogo, useBranding } from '@/components/branding/branding';
import { Logo } from '@/components/ui/logo';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { StateCard } from '@/components/ui/state-card';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/forms';
import { say, t } from '@/lib/i18n';
import {
  continueAnswers,
  quickAnswer,
  roundToAnswerKey,
  submitAnswers,
  useRoundToAnswer,
  type AnswerTarget,
} from './api';
import { AnswerForm, RoundHeading, valuesOf, type Refusal } from './answer-form';

/**
 * The public page's frame: the personal link needs no sign-in, so it has no app navigation. It carries the branding
 * of the loop's organisation: its logo, and its accent colour on the buttons.
 */
function PublicFrame({ children, branding }: { children: ReactNode; branding: Branding | null | undefined }) {
  useBranding(branding);
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-2xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <BrandLogo branding={branding} className="h-10" />
          <div className="flex items-center gap-3">
            <LanguageMenu compact />
            <Logo />
          </div>
        </div>
      </header>
      <main className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-6 sm:py-10">{children}</main>
    </div>
  );
}

/** The signed-in member's frame: inside the participant layout, which has the `main` landmark. */
function MemberFrame({ children, branding }: { children: ReactNode; branding: Branding | null | undefined }) {
  useBranding(branding);
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-6 sm:py-10">
      <BrandLogo branding={branding} className="h-10" />
      {children}
    </div>
  );
}

function Thanks({ home }: { home: ReactNode }) {
  return (
    <StateCard
      headingLevel={1}
      icon={<CheckCircle2 className="mx-auto mb-3 size-10 text-green-600" aria-hidden="true" />}
      title={t('loopAnswer.thanks')}
      message={t('loopAnswer.recorded')}
      actions={home}
    />
  );
}

const refusalHint = (state: Refusal['state']): string =>
  ({
    'already-answered': t('loopAnswer.hintAlreadyAnswered'),
    'round-closed': t('loopAnswer.hintRoundClosed'),
    'loop-paused': t('loopAnswer.hintLoopPaused'),
    'loop-ended': t('loopAnswer.hintLoopEnded'),
  })[state];

/** The round's state when it takes no answer: already answered, closed, paused or ended, in the API's words. */
function Refused({ refusal, home }: { refusal: Refusal; home?: ReactNode }) {
  return (
    <StateCard
      headingLevel={1}
      title={say(refusal.message)}
      message={refusalHint(refusal.state)}
      actions={home}
    />
  );
}

/** A round that is not open, as a refusal. */
const stateRefusal = (round: RoundToAnswer): Refusal | null =>
  round.state === 'open' ? null : { state: round.state, message: round.message ?? '' };

function LoadError({ error, home }: { error: Error; home?: ReactNode }) {
  const notFound = error instanceof ApiError && error.status === 404;
  return (
    <StateCard
      headingLevel={1}
      tone="error"
      title={notFound ? error.message : t('loopAnswer.loadFailed')}
      message={notFound ? t('loopAnswer.notFoundHint') : errorMessage(error, t('loopAnswer.pleaseTryAgain'))}
      actions={home}
    />
  );
}

/** A value chosen in the e-mail ('?answer=4'), or null. */
const clickedValue = (raw: string | null) => (raw !== null && /^\d{1,2}$/.test(raw) ? Number(raw) : null);

const continuationKey = (token: string) => `loop-continuation:${token}`;

/** The first answer, once recorded: its value (unknown after a reload) and the secret for the rest of the form. */
type FirstAnswer = { value: number | null; continuation: string };

/**
 * /loop-answer/{token}: the personal link of a round's e-mail. With '?answer=v' (a value clicked in the e-mail) the
 * page opens with v chosen for the first question and records nothing until the person presses 'Send my answer'
 * (decision 0014): opening the page, as a mail scanner's headless browser does, never posts. Once sent, the rest
 * of the form adds to that answer through the continuation secret kept in this tab.
 */
export function LinkAnswerPage() {
  const { token = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const round = useRoundToAnswer({ token });
  const [first, setFirst] = useState<FirstAnswer | null>(() => {
    const kept = sessionStorage.getItem(continuationKey(token));
    return kept ? { value: null, continuation: kept } : null;
  });
  const onFirstSent = (answer: FirstAnswer) => {
    sessionStorage.setItem(continuationKey(token), answer.continuation);
    setFirst(answer);
    // The sent value leaves the address: a reload shows the rest of the form, not the choice again.
    setParams({}, { replace: true });
  };
  return (
    <PublicFrame branding={round.data?.branding}>
      <LinkAnswer
        token={token}
        round={round}
        clicked={clickedValue(params.get('answer'))}
        first={first}
        onFirstSent={onFirstSent}
      />
    </PublicFrame>
  );
}

function LinkAnswer({
  token,
  round,
  clicked,
  first,
  onFirstSent,
}: {
  token: string;
  round: ReturnType<typeof useRoundToAnswer>;
  clicked: number | null;
  first: FirstAnswer | null;
  onFirstSent: (answer: FirstAnswer) => void;
}) {
  const [done, setDone] = useState(false);
  const [refused, setRefused] = useState<Refusal | null>(null);
  const forget = () => sessionStorage.removeItem(continuationKey(token));
  if (round.isPending) return <Spinner label={t('loopAnswer.loading')} className="py-16" />;
  if (round.isError) return <LoadError error={round.error} />;
  const data = round.data;
  if (done) return <Thanks home={null} />;
  if (refused) return <Refused refusal={refused} />;
  const [question] = data.questions;

  // After the first answer was sent: the rest of the form, adding to it (the round now says 'answered').
  if (first && (data.state === 'open' || data.state === 'already-answered')) {
    if (first.value !== null && data.questions.length === 1 && data.followUps.length === 0)
      return <Thanks home={null} />;
    return (
      <>
        <RoundHeading round={data} />
        <Notice tone="success">
          {first.value !== null && question
            ? t('loopAnswer.firstRecordedValue', { value: first.value })
            : t('loopAnswer.firstRecorded')}
        </Notice>
        <AnswerForm
          questions={data.questions}
          followUps={data.followUps}
          initial={first.value !== null && question ? { [question.id]: first.value } : {}}
          partial
          send={(answers, followUps) => continueAnswers(first.continuation, answers, followUps)}
          onSent={() => {
            forget();
            setDone(true);
          }}
          onRefused={(refusal) => {
            forget();
            setRefused(refusal);
          }}
        />
      </>
    );
  }
  const closed = stateRefusal(data);
  if (closed) return <Refused refusal={closed} />;

  // A value chosen in the e-mail: the first question with it selected, recorded only by the person's press.
  if (question && clicked !== null && valuesOf(question).includes(clicked)) {
    return (
      <>
        <RoundHeading round={data} />
        <AnswerForm
          questions={[question]}
          initial={{ [question.id]: clicked }}
          submitLabel={t('loopAnswer.sendChosen')}
          note={t('loopAnswer.nothingSentYet', { button: t('loopAnswer.sendChosen') })}
          send={async (answers) => {
            const value = Number(answers[question.id]);
            return { value, continuation: (await quickAnswer(token, value)).continuation };
          }}
          onSent={onFirstSent}
          onRefused={setRefused}
        />
      </>
    );
  }
  return (
    <>
      <RoundHeading round={data} />
      <AnswerForm
        questions={data.questions}
        followUps={data.followUps}
        send={(answers, followUps) => submitAnswers({ token }, answers, followUps)}
        onSent={() => setDone(true)}
        onRefused={setRefused}
      />
    </>
  );
}

/** /loop-rounds/{roundId}: a signed-in member answers a round from /dashboard or the bell. */
export function RoundAnswerPage() {
  const { roundId = '' } = useParams();
  const target: AnswerTarget = { roundId };
  const round = useRoundToAnswer(target);
  const queryClient = useQueryClient();
  const [done, setDone] = useState(false);
  const [refused, setRefused] = useState<Refusal | null>(null);
  const home = (
    <Button asChild>
      <Link to="/dashboard">{t('loops.backToDashboard')}</Link>
    </Button>
  );
  const finish = () => {
    void queryClient.invalidateQueries({ queryKey: ['my-loop-rounds'] });
    void queryClient.invalidateQueries({ queryKey: roundToAnswerKey(target) });
  };
  let body: ReactNode;
  if (round.isPending) body = <Spinner label={t('loopAnswer.loading')} className="py-16" />;
  else if (round.isError) body = <LoadError error={round.error} home={home} />;
  else if (done) body = <Thanks home={home} />;
  else if (refused) body = <Refused refusal={refused} home={home} />;
  else if (stateRefusal(round.data)) body = <Refused refusal={stateRefusal(round.data)!} home={home} />;
  else
    body = (
      <MemberForm
        round={round.data}
        target={target}
        onSent={() => setDone(true)}
        onRefused={setRefused}
        finish={finish}
      />
    );
  return <MemberFrame branding={round.data?.branding}>{body}</MemberFrame>;
}

function MemberForm({
  round,
  target,
  onSent,
  onRefused,
  finish,
}: {
  round: RoundToAnswer;
  target: AnswerTarget;
  onSent: () => void;
  onRefused: (refusal: Refusal) => void;
  finish: () => void;
}) {
  return (
    <>
      <RoundHeading round={round} />
      <AnswerForm
        questions={round.questions}
        followUps={round.followUps}
        send={(answers, followUps) => submitAnswers(target, answers, followUps)}
        onSent={() => {
          finish();
          onSent();
        }}
        onRefused={(refusal) => {
          finish();
          onRefused(refusal);
        }}
      />
    </>
  );
}
