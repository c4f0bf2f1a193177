import {
  FOLLOW_UP_ANSWER_LABELS,
  FOLLOW_UP_ANSWERS,
  type FollowUpAnswer,
} from '@pulsecheck/shared/action-items/follow-up';
import type { ParticipationFollowUp } from '@pulsecheck/shared/participation/contract';
import { COMMENT_MAX } from '@pulsecheck/shared/participation/rules';
import { useId } from 'react';
import { Textarea } from '@/components/ui/input';
import { say, t } from '@/lib/i18n';

/**
 * A follow-up question after a component's rating (decision 0019): 'Did "<action>" help with <component>?', four
 * answers as radio buttons, and an optional comment when the check takes comments. Answering is optional. Shared by
 * a check's rating flow and a loop round's answer form ('Follow-up on actions', which takes no comment).
 */
export function FollowUpQuestion({
  followUp,
  answer,
  comment,
  commentsOn,
  onAnswer,
  onComment,
}: {
  /** A check's question, or a loop round's (which has no component and takes no comment). */
  followUp: Pick<ParticipationFollowUp, 'question'>;
  answer: FollowUpAnswer | undefined;
  comment: string;
  commentsOn: boolean;
  onAnswer: (answer: FollowUpAnswer) => void;
  onComment: (text: string) => void;
}) {
  const id = useId();
  return (
    <fieldset className="mt-6 rounded-lg border border-slate-200 p-4" data-testid="follow-up-question">
      <legend className="px-1 text-sm font-semibold text-slate-900">{followUp.question}</legend>
      <div className="mt-1 flex flex-wrap gap-2">
        {FOLLOW_UP_ANSWERS.map((value) => (
          <label
            key={value}
            className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 text-sm text-slate-900 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600"
          >
            <input
              type="radio"
              name={`follow-up-${id}`}
              value={value}
              checked={answer === value}
              onChange={() => onAnswer(value)}
              className="size-4 accent-brand-700"
            />
            {say(FOLLOW_UP_ANSWER_LABELS[value])}
          </label>
        ))}
      </div>
      {commentsOn && (
        <div className="mt-3 space-y-1">
          <label htmlFor={`${id}-comment`} className="text-sm font-medium text-slate-800">
            {t('followUps.comment')}
          </label>
          <Textarea
            id={`${id}-comment`}
            value={comment}
            maxLength={COMMENT_MAX}
            onChange={(event) => onComment(event.target.value)}
          />
        </div>
      )}
    </fieldset>
  );
}
