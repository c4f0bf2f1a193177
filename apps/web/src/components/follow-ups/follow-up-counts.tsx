import {
  FOLLOW_UP_ANSWER_LABELS,
  FOLLOW_UP_ANSWERS,
  type FollowUpCounts,
} from '@pulsecheck/shared/action-items/follow-up';
import { formats, say, t } from '@/lib/i18n';

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
    <dl
      className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4"
      aria-label={t('followUps.answers', { question })}
    >
      {FOLLOW_UP_ANSWERS.map((answer) => (
        <div key={answer} className="rounded-md bg-slate-50 p-2">
          <dt className="text-xs text-slate-600">{say(FOLLOW_UP_ANSWER_LABELS[answer])}</dt>
          <dd className="font-semibold text-slate-900">
            {t('followUps.count', {
              count: counts[answer],
              percent: formats().percent(percentages[answer] / 100),
            })}
          </dd>
        </div>
      ))}
    </dl>
  );
}
