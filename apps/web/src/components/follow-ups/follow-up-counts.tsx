import {
  FOLLOW_UP_ANSWER_LABELS,
  FOLLOW_UP_ANSWERS,
  type FollowUpCounts,
} from '@pulsecheck/shared/action-items/follow-up';

/** A follow-up question's released answers, each with its count and share (check results and loop results). */
export function FollowUpAnswerCounts({
  question,
  counts,
  percentages,
}: {
  question: string;
  counts: FollowUpCounts;
  percentages: FollowUpCounts;
}) {
  return (
    <dl className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label={`Answers: ${question}`}>
      {FOLLOW_UP_ANSWERS.map((answer) => (
        <div key={answer} className="rounded-md bg-slate-50 p-2">
          <dt className="text-xs text-slate-600">{FOLLOW_UP_ANSWER_LABELS[answer]}</dt>
          <dd className="font-semibold text-slate-900">
            {counts[answer]} ({percentages[answer]}%)
          </dd>
        </div>
      ))}
    </dl>
  );
}
