import type { AnswerState, LoopQuestionOut, RoundToAnswer } from '@pulsecheck/shared/loops/contract';
import {
  ENPS_LABELS,
  ENPS_MAX,
  ENPS_MIN,
  LOOP_LIMITS,
  SCALE_MAX,
  SCALE_MIN,
} from '@pulsecheck/shared/loops/rules';
import type * as LoopSchemas from '@pulsecheck/shared/loops/schemas';
import type { RoundAnswers } from '@pulsecheck/shared/loops/schemas';
import { FOLLOW_UP_MESSAGES, type FollowUpAnswer } from '@pulsecheck/shared/action-items/follow-up';
import { useState, type FormEvent } from 'react';
import { FollowUpQuestion } from '@/components/follow-ups/follow-up-question';
import { SubmitButton } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { Textarea } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/forms';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/dates';
import { say, t } from '@/lib/i18n';
import { ShownIn, ShownInNote } from './shown-in';

/** Why a round takes no answer: the answer page then shows that state instead of the form. */
export type Refusal = { state: Exclude<AnswerState, 'open'>; message: string };

const REFUSAL_STATES: Record<string, Refusal['state']> = {
  already_answered: 'already-answered',
  round_closed: 'round-closed',
  loop_paused: 'loop-paused',
  loop_ended: 'loop-ended',
};

/** The refusal an API error says (409 already answered, closed, paused, ended), or null for any other failure. */
export function refusalOf(error: unknown): Refusal | null {
  const state = error instanceof ApiError ? REFUSAL_STATES[error.code] : undefined;
  return state && error instanceof Error ? { state, message: error.message } : null;
}

/**
 * The answers' schema (zod and the shared schemas) is fetched when the form is first used, not with the page:
 * people open this page from an e-mail, and it should paint at once (decision 0006).
 */
let schemas: Promise<typeof LoopSchemas> | undefined;
const loadSchemas = () => {
  schemas ??= import('@pulsecheck/shared/loops/schemas').catch((error: unknown) => {
    schemas = undefined;
    throw error;
  });
  return schemas;
};

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The values a question takes: 1 to 5 (scale), 0 to 10 (eNPS), none (free text). */
export const valuesOf = (question: LoopQuestionOut) =>
  question.kind === 'enps'
    ? range(ENPS_MIN, ENPS_MAX)
    : question.kind === 'scale'
      ? range(SCALE_MIN, SCALE_MAX)
      : [];

/** The answer page's heading: the loop, the round, when it closes and whether answers carry names. */
export function RoundHeading({ round }: { round: RoundToAnswer }) {
  return (
    <div className="flex flex-col gap-1">
      <p className="text-sm text-slate-600">{round.workspaceName}</p>
      <h1 className="text-2xl font-bold break-words text-slate-900">{round.loop.title}</h1>
      {round.loop.description && <p className="text-slate-700">{round.loop.description}</p>}
      <p className="text-sm text-slate-600">
        {t('loopAnswer.roundOpenUntil', {
          number: round.round.number,
          date: formatDateTime(round.round.closesAt),
        })}
      </p>
      <p className="text-sm text-slate-600">
        {round.loop.anonymous ? t('loopAnswer.anonymousNote') : t('loopAnswer.namedNote')}
      </p>
    </div>
  );
}

/** A value of a scale or score, as a row of radio buttons that look like buttons. */
function ValueChoice({
  question,
  value,
  onChange,
  invalid,
}: {
  question: LoopQuestionOut;
  value: number | undefined;
  onChange: (value: number) => void;
  invalid: boolean;
}) {
  const enps = question.kind === 'enps';
  const values = valuesOf(question);
  const low = enps ? say(ENPS_LABELS.low) : (question.lowLabel ?? '');
  const high = enps ? say(ENPS_LABELS.high) : (question.highLabel ?? '');
  return (
    <div className="flex flex-col gap-2">
      <div className={cn('grid gap-1.5', enps ? 'grid-cols-6 sm:grid-cols-11' : 'grid-cols-5')}>
        {values.map((option) => {
          const label =
            option === values[0]
              ? t('loopAnswer.valueWithLabel', { value: option, label: low })
              : option === values.at(-1)
                ? t('loopAnswer.valueWithLabel', { value: option, label: high })
                : String(option);
          return (
            <label key={option} className="relative">
              <input
                type="radio"
                name={`question-${question.id}`}
                value={option}
                checked={value === option}
                onChange={() => onChange(option)}
                aria-label={label}
                aria-invalid={invalid || undefined}
                className="peer absolute inset-0 z-10 size-full cursor-pointer opacity-0"
              />
              <span className="flex h-11 cursor-pointer items-center justify-center rounded-lg border border-slate-300 bg-white text-sm font-semibold text-slate-800 peer-checked:border-brand-600 peer-checked:bg-brand-600 peer-checked:text-white peer-focus-visible:ring-2 peer-focus-visible:ring-brand-600 peer-focus-visible:ring-offset-2 hover:bg-slate-100 peer-checked:hover:bg-brand-700">
                {option}
              </span>
            </label>
          );
        })}
      </div>
      <div
        className="flex justify-between gap-4 text-xs text-slate-600"
        aria-hidden="true"
        lang={enps ? undefined : (question.shownIn ?? undefined)}
      >
        <span>{low}</span>
        <span className="text-end">{high}</span>
      </div>
    </div>
  );
}

/**
 * A round's questions to answer. Checked against the round's own rules (`roundAnswersSchema`: scale and score
 * required, free text optional; with `partial`, nothing required) before it is sent; the server checks the same.
 * Nothing is sent before the submit button is pressed. `send` throws the API's error: a refusal (already answered,
 * closed, paused, ended) goes to `onRefused`; what it answers goes to `onSent`. `note` is a line above the button.
 */
export function AnswerForm<Sent>({
  questions,
  followUps = [],
  initial = {},
  partial = false,
  submitLabel,
  note,
  send,
  onSent,
  onRefused,
}: {
  questions: LoopQuestionOut[];
  /** The actions the round asks about ('Follow-up on actions'), each optional, after the questions. */
  followUps?: RoundToAnswer['followUps'];
  initial?: RoundAnswers;
  partial?: boolean;
  submitLabel?: string;
  note?: string;
  send: (answers: RoundAnswers, followUps: Record<string, FollowUpAnswer>) => Promise<Sent>;
  onSent: (sent: Sent) => void;
  onRefused: (refusal: Refusal) => void;
}) {
  const [values, setValues] = useState<RoundAnswers>(initial);
  const [followUpValues, setFollowUpValues] = useState<Record<string, FollowUpAnswer>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const set = (id: string, value: number | string) => {
    setValues((current) => ({ ...current, [id]: value }));
    setErrors(({ [id]: _gone, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    let parsed;
    try {
      parsed = (await loadSchemas()).roundAnswersSchema(questions, { partial }).safeParse(values);
    } catch (error) {
      setFailure(errorMessage(error, t('loopAnswer.checkFailed')));
      return;
    }
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const id = String(issue.path[0] ?? '');
        found[id] ??= say(issue.message);
      }
      setErrors(found);
      const first = questions.find((q) => found[q.id]);
      if (first) document.getElementById(`question-${first.id}`)?.focus();
      return;
    }
    setPending(true);
    try {
      onSent(await send(parsed.data, followUpValues));
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) onRefused(refusal);
      else if (error instanceof ApiError && error.fields) setErrors(error.fields);
      else setFailure(errorMessage(error, t('loopAnswer.sendFailed')));
    } finally {
      setPending(false);
    }
  };

  return (
    <form
      className="flex flex-col gap-5"
      onSubmit={(event) => void submit(event)}
      onFocus={() => void loadSchemas().catch(() => undefined)}
      noValidate
    >
      <QuestionFields questions={questions} values={values} errors={errors} onChange={set} />
      {followUps.length > 0 && (
        <section
          aria-labelledby="follow-ups-title"
          className="rounded-xl border border-slate-200 bg-white p-4 sm:p-5"
        >
          <h2 id="follow-ups-title" className="font-medium text-slate-900">
            {say(FOLLOW_UP_MESSAGES.loopSectionTitle)}
          </h2>
          <p className="text-sm text-slate-600">{say(FOLLOW_UP_MESSAGES.loopAnswerHint)}</p>
          {followUps.map((followUp) => (
            <FollowUpQuestion
              key={followUp.id}
              followUp={followUp}
              answer={followUpValues[followUp.id]}
              comment=""
              commentsOn={false}
              onAnswer={(answer) => setFollowUpValues((current) => ({ ...current, [followUp.id]: answer }))}
              onComment={() => undefined}
            />
          ))}
          {errors.followUps && (
            <p role="alert" className="mt-2 text-sm text-red-700">
              {say(errors.followUps)}
            </p>
          )}
        </section>
      )}
      {failure && <Notice tone="error">{failure}</Notice>}
      {note && (
        <p id="answer-form-note" className="text-sm text-slate-700">
          {note}
        </p>
      )}
      <SubmitButton
        pending={pending}
        busy={t('loopAnswer.sending')}
        size="lg"
        className="self-start"
        aria-describedby={note ? 'answer-form-note' : undefined}
      >
        {submitLabel ?? t('loopAnswer.submit')}
      </SubmitButton>
    </form>
  );
}

/** A round's questions as fieldsets: a row of values for a scale or score, a text box for free text. */
export function QuestionFields({
  questions,
  values,
  errors = {},
  onChange,
}: {
  questions: LoopQuestionOut[];
  values: RoundAnswers;
  errors?: Record<string, string>;
  onChange: (questionId: string, value: number | string) => void;
}) {
  return (
    <>
      {questions.map((question, index) => {
        const error = errors[question.id];
        const value = values[question.id];
        return (
          <fieldset
            key={question.id}
            id={`question-${question.id}`}
            tabIndex={-1}
            aria-describedby={error ? `question-${question.id}-error` : undefined}
            className="rounded-xl border border-slate-200 bg-white p-4 sm:p-5"
          >
            <legend className="float-start mb-3 w-full font-medium text-slate-900">
              <span className="text-slate-600">{t('loopAnswer.questionIndex', { number: index + 1 })}</span>{' '}
              <ShownIn language={question.shownIn}>{question.text}</ShownIn>
              {question.kind === 'text' && (
                <>
                  {' '}
                  <span className="text-sm font-normal text-slate-600">{t('loopAnswer.optional')}</span>
                </>
              )}
            </legend>
            <div className="clear-both">
              <ShownInNote language={question.shownIn} className="mb-3 text-xs text-slate-600" />
              {question.kind === 'text' ? (
                <Textarea
                  aria-label={t('loopAnswer.textAnswerLabel', { number: index + 1 })}
                  maxLength={LOOP_LIMITS.answerMax}
                  value={typeof value === 'string' ? value : ''}
                  onChange={(event) => onChange(question.id, event.target.value)}
                  aria-invalid={error ? true : undefined}
                />
              ) : (
                <ValueChoice
                  question={question}
                  value={typeof value === 'number' ? value : undefined}
                  onChange={(next) => onChange(question.id, next)}
                  invalid={Boolean(error)}
                />
              )}
              {error && (
                <p id={`question-${question.id}-error`} role="alert" className="mt-2 text-sm text-red-700">
                  {say(error)}
                </p>
              )}
            </div>
          </fieldset>
        );
      })}
    </>
  );
}
