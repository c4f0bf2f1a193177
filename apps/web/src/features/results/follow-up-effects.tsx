import {
  COMPONENT_HEALTH_LABELS,
  FOLLOW_UP_MESSAGES,
  healthChangeWords,
} from '@pulsecheck/shared/action-items/follow-up';
import type { ComponentFollowUp } from '@pulsecheck/shared/results/schemas';
import { Badge } from '@/components/ui/badge';
import { FollowUpAnswerCounts } from '@/components/follow-ups/follow-up-counts';
import { formatDate } from '@/lib/dates';
import { say, t } from '@/lib/i18n';

const CHANGE_TONE = { improved: 'green', stayed: 'neutral', worsened: 'red' } as const;

/**
 * 'Actions since last check' under a component (decision 0019): each action the check asked about, with its
 * owner, when it was done, the team's answers once released, and the component's health before and now in words
 * (written here from `before` and `now`, so they follow a change of language; the answer's `changeWords` says the
 * same in the language of the request).
 */
export function FollowUpEffects({ followUps }: { followUps: ComponentFollowUp[] }) {
  if (followUps.length === 0) return null;
  return (
    <section className="mt-4" data-testid="follow-up-effects">
      <h3 className="text-sm font-semibold text-slate-900">{say(FOLLOW_UP_MESSAGES.sectionTitle)}</h3>
      <ul className="mt-1 flex flex-col gap-2">
        {followUps.map((f) => (
          <li key={f.questionId} className="rounded-lg border border-slate-200 p-3 text-sm">
            <p className="font-medium break-words text-slate-900">{f.actionTitle}</p>
            <p className="mt-1 flex flex-wrap gap-x-3 text-xs text-slate-600">
              <span>
                {f.ownerName
                  ? t('results.actionItem.owner', { name: f.ownerName })
                  : t('results.actionItem.ownerNone')}
              </span>
              {f.doneAt && <span>{t('results.actionItem.done', { date: formatDate(f.doneAt) })}</span>}
            </p>
            {f.counts && f.percentages ? (
              <FollowUpAnswerCounts question={f.question} counts={f.counts} percentages={f.percentages} />
            ) : (
              <p className="mt-2 text-xs text-slate-600">
                {say(f.answered === 0 ? FOLLOW_UP_MESSAGES.noAnswersYet : FOLLOW_UP_MESSAGES.answersHidden)}
              </p>
            )}
            <p className="mt-2 flex flex-wrap items-center gap-2 text-slate-800">
              <span>
                {t('results.followUp.health', {
                  before: f.before ? say(COMPONENT_HEALTH_LABELS[f.before]) : '—',
                  now: f.now ? say(COMPONENT_HEALTH_LABELS[f.now]) : '—',
                })}
              </span>
              {f.change ? (
                <Badge tone={CHANGE_TONE[f.change]} data-testid="follow-up-change">
                  {healthChangeWords(f.before, f.now, { t })}
                </Badge>
              ) : (
                <span className="text-xs text-slate-600">{healthChangeWords(f.before, f.now, { t })}</span>
              )}
            </p>
            {f.comments.length > 0 && (
              <ul className="mt-2 flex flex-col gap-1">
                {f.comments.map((comment, index) => (
                  <li key={index} className="text-slate-800">
                    <span className="whitespace-pre-wrap">{comment.content}</span>{' '}
                    <span className="text-xs text-slate-600">— {say(comment.author)}</span>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
