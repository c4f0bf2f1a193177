import { FOLLOW_UP_MESSAGES } from '@pulsecheck/shared/action-items/follow-up';
import type {
  FollowUpResult,
  LoopResults,
  QuestionResult,
  RoundSummary,
} from '@pulsecheck/shared/loops/contract';
import { ENPS_LABELS, ENPS_MIN, SCALE_MIN } from '@pulsecheck/shared/loops/rules';
import { shares } from '@pulsecheck/shared/loops/stats';
import { Download } from 'lucide-react';
import { useId } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { Select } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { StateCard } from '@/components/ui/state-card';
import { FollowUpAnswerCounts } from '@/components/follow-ups/follow-up-counts';
import { formatDateTime } from '@/lib/dates';
import { formats, say, t, tRich } from '@/lib/i18n';
import { ShownIn, ShownInNote } from './shown-in';
import { resultsCsvUrl, useLiveLoop, useLoopResults } from './api';
import { answeredOf, percentText, responsesWord } from './format';

const ONE_DECIMAL = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
import { LoopHeader, LoopLoadFailed } from './loop-header';

/** '+20', '0', '−15': an eNPS reads with its sign. */
export const signed = (value: number) => {
  const size = formats().number(Math.abs(value));
  return value > 0 ? `+${size}` : value < 0 ? `−${size}` : size;
};

const roundLabel = (round: RoundSummary) =>
  t(round.status === 'open' ? 'loopResults.roundOptionOpen' : 'loopResults.roundOption', {
    number: round.number,
    date: formatDateTime(round.openedAt),
  });

/** /admin/loop-results/{loopId}[?round=]: a round's answers per question, when its results may show. */
export function LoopResultsPage() {
  const { loopId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const roundId = params.get('round');
  const results = useLoopResults(loopId, roundId);
  useLiveLoop(loopId);
  if (results.isPending) return <Spinner label={t('loopResults.loading')} className="py-16" />;
  if (results.isError) {
    return (
      <LoopLoadFailed
        error={results.error}
        title={t('loopResults.loadFailed')}
        onRetry={() => void results.refetch()}
      />
    );
  }

  const { loop, rounds, round } = results.data;
  return (
    <div className="flex flex-col gap-6">
      <LoopHeader loop={loop} detail={loop.anonymous ? t('loopResults.anonymous') : t('loopResults.named')} />
      {round === null ? (
        <StateCard title={t('loopResults.noRound')} message={t('loopResults.noRoundHint')} />
      ) : (
        <>
          <RoundPicker
            rounds={rounds}
            value={round.id}
            onChange={(id) => setParams({ round: id }, { replace: true })}
          />
          <Round loopId={loop.id} round={round} />
        </>
      )}
    </div>
  );
}

function RoundPicker({
  rounds,
  value,
  onChange,
}: {
  rounds: RoundSummary[];
  value: string;
  onChange: (roundId: string) => void;
}) {
  const id = useId();
  return (
    <div className="flex max-w-md flex-col gap-1.5">
      <Label htmlFor={id}>{t('loopResults.round')}</Label>
      <Select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {rounds.map((round) => (
          <option key={round.id} value={round.id}>
            {roundLabel(round)}
          </option>
        ))}
      </Select>
    </div>
  );
}

function Round({ loopId, round }: { loopId: string; round: NonNullable<LoopResults['round']> }) {
  const released = round.state === 'released';
  return (
    <section aria-labelledby="round-title" className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="round-title" className="text-lg font-semibold text-slate-900">
            {t('loops.roundNumber', { number: round.number })}
          </h2>
          <p className="text-sm text-slate-600" data-testid="round-summary">
            {round.status === 'open'
              ? t('loopResults.summaryOpen', {
                  answered: answeredOf(round.answered, round.audience),
                  rate: percentText(round.responseRate),
                  date: formatDateTime(round.closesAt),
                })
              : t('loopResults.summaryClosed', {
                  answered: answeredOf(round.answered, round.audience),
                  rate: percentText(round.responseRate),
                })}
          </p>
        </div>
        {released && (
          <Button variant="secondary" asChild>
            <a href={resultsCsvUrl(loopId, round.id)} download>
              <Download aria-hidden="true" />
              {t('loopResults.exportCsv')}
            </a>
          </Button>
        )}
      </div>
      {!released ? (
        <Notice tone="info">{say(round.message ?? '')}</Notice>
      ) : (
        <ol className="flex flex-col gap-4">
          {round.questions.map((question, index) => (
            <li key={question.id}>
              <QuestionCard question={question} number={index + 1} />
            </li>
          ))}
        </ol>
      )}
      {released && <RoundFollowUps followUps={round.followUps} />}
    </section>
  );
}

/**
 * 'Actions since last round' ('Follow-up on actions', decision 0019): each action the round asked about with its
 * answers, each released by the round's rule applied to its own answers; otherwise why not.
 */
function RoundFollowUps({ followUps }: { followUps: FollowUpResult[] }) {
  if (followUps.length === 0) return null;
  return (
    <Card role="article" aria-labelledby="round-follow-ups-title" data-testid="round-follow-ups">
      <CardHeader>
        <CardTitle id="round-follow-ups-title" className="text-base">
          {say(FOLLOW_UP_MESSAGES.loopSectionTitle)}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-3">
          {followUps.map((f) => (
            <li key={f.id} className="rounded-lg border border-slate-200 p-3 text-sm">
              <p className="font-medium break-words text-slate-900">{f.question}</p>
              <p className="text-xs text-slate-600">{responsesWord(f.answers)}</p>
              {f.counts && f.percentages ? (
                <FollowUpAnswerCounts question={f.question} counts={f.counts} percentages={f.percentages} />
              ) : (
                <p className="mt-2 text-sm text-slate-700">{say(f.message ?? '')}</p>
              )}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function QuestionCard({ question, number }: { question: QuestionResult; number: number }) {
  return (
    <Card role="article" aria-label={t('loopResults.questionLabel', { number, text: question.text })}>
      <CardHeader>
        <CardTitle className="text-base">
          {t('loopAnswer.questionIndex', { number })}{' '}
          <ShownIn language={question.shownIn}>{question.text}</ShownIn>
        </CardTitle>
        <ShownInNote language={question.shownIn} />
        <CardDescription>{responsesWord(question.answers)}</CardDescription>
      </CardHeader>
      <CardContent>
        {question.state !== 'released' ? (
          <p className="text-sm text-slate-700">{say(question.message ?? '')}</p>
        ) : question.kind === 'scale' ? (
          <ScaleResult question={question} />
        ) : question.kind === 'enps' ? (
          <EnpsResult question={question} />
        ) : (
          <TextResult question={question} />
        )}
      </CardContent>
    </Card>
  );
}

/** One bar per value with its count and share, as a list a screen reader reads in order. */
function Histogram({
  counts,
  barShares,
  first,
  endLabels,
  label,
  tone = () => 'bg-brand-600',
}: {
  counts: number[];
  barShares: number[];
  first: number;
  endLabels: { low: string; high: string };
  label: string;
  tone?: (value: number) => string;
}) {
  const last = first + counts.length - 1;
  return (
    <ul aria-label={label} className="flex flex-col gap-1.5">
      {counts.map((count, index) => {
        const value = first + index;
        const end = value === first ? endLabels.low : value === last ? endLabels.high : null;
        return (
          <li key={value} className="grid grid-cols-[2.5rem_1fr_6.5rem] items-center gap-2 text-sm">
            <span className="font-medium text-slate-900">{value}</span>
            <span className="flex flex-col gap-0.5">
              <span className="h-3 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                <span
                  className={`block h-full rounded-full ${tone(value)}`}
                  style={{ width: `${barShares[index] ?? 0}%` }}
                />
              </span>
              {end && <span className="text-xs text-slate-600">{end}</span>}
            </span>
            <span className="text-end text-slate-700">
              {t('loopResults.countShare', {
                count: formats().number(count),
                share: percentText(barShares[index] ?? 0),
              })}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function ScaleResult({ question }: { question: QuestionResult }) {
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-700">
        {tRich('loopResults.mean', {
          mean: question.mean === null ? '–' : formats().number(question.mean, ONE_DECIMAL),
          big: (chunks) => <span className="text-2xl font-semibold text-slate-900">{chunks}</span>,
        })}
      </p>
      <Histogram
        counts={question.counts ?? []}
        barShares={question.shares ?? []}
        first={SCALE_MIN}
        endLabels={{ low: question.lowLabel ?? '', high: question.highLabel ?? '' }}
        label={t('loopResults.answersTo', { text: question.text })}
      />
    </div>
  );
}

const enpsTone = (value: number) =>
  value >= 9 ? 'bg-green-600' : value >= 7 ? 'bg-slate-400' : 'bg-red-600';

function EnpsResult({ question }: { question: QuestionResult }) {
  const enps = question.enps;
  if (!enps) return null;
  const [promoters, passives, detractors] = shares([enps.promoters, enps.passives, enps.detractors]);
  const groups = [
    { label: t('loopResults.promoters'), count: enps.promoters, share: promoters, tone: 'text-green-800' },
    { label: t('loopResults.passives'), count: enps.passives, share: passives, tone: 'text-slate-700' },
    { label: t('loopResults.detractors'), count: enps.detractors, share: detractors, tone: 'text-red-800' },
  ];
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-700">
        {tRich('loopResults.enps', {
          score: enps.score === null ? '–' : signed(enps.score),
          big: (chunks) => (
            <span className="text-2xl font-semibold text-slate-900" data-testid="enps-score">
              {chunks}
            </span>
          ),
        })}
      </p>
      <dl className="grid gap-2 sm:grid-cols-3">
        {groups.map((group) => (
          <div key={group.label} className="rounded-lg border border-slate-200 p-3">
            <dt className={`text-xs font-medium ${group.tone}`}>{group.label}</dt>
            <dd className="text-lg font-semibold text-slate-900">
              {t('loopResults.countShare', {
                count: formats().number(group.count),
                share: percentText(group.share ?? 0),
              })}
            </dd>
          </div>
        ))}
      </dl>
      <Histogram
        counts={question.counts ?? []}
        barShares={question.shares ?? []}
        first={ENPS_MIN}
        endLabels={{ low: say(ENPS_LABELS.low), high: say(ENPS_LABELS.high) }}
        label={t('loopResults.scoresFor', { text: question.text })}
        tone={enpsTone}
      />
    </div>
  );
}

function TextResult({ question }: { question: QuestionResult }) {
  const texts = question.texts ?? [];
  if (texts.length === 0) return <p className="text-sm text-slate-600">{t('loopResults.noText')}</p>;
  return (
    <ul className="flex flex-col gap-2" aria-label={t('loopResults.answersTo', { text: question.text })}>
      {texts.map((answer, index) => (
        <li key={index} className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-800">
          <p className="break-words whitespace-pre-line">{answer.text}</p>
          {answer.author && <p className="mt-1 text-xs text-slate-600">{answer.author}</p>}
        </li>
      ))}
    </ul>
  );
}
