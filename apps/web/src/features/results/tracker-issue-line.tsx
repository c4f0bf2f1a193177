import type { TrackerIssue } from '@pulsecheck/shared/trackers/rules';
import { TRACKER_MESSAGES } from '@pulsecheck/shared/trackers/rules';
import { Notice } from '@/components/ui/notice';
import { say, t, tRich } from '@/lib/i18n';

/** An issue's state in words (a function: the catalogue loads after this module). */
const stateLabel = (state: TrackerIssue['state']) =>
  ({
    creating: say(TRACKER_MESSAGES.creating),
    open: t('results.tracker.open'),
    closed: t('results.tracker.closed'),
  })[state];

/** The linked issue as the action item shows it: key (a link), state, assignee, title; and a failure with what to do. */
export function TrackerIssueLine({ tracker }: { tracker: TrackerIssue }) {
  return (
    <div className="space-y-1" data-testid="tracker-issue">
      <p className="flex flex-wrap gap-x-3 text-xs text-slate-700">
        <span>
          {tracker.key && tracker.url
            ? tRich('results.tracker.issueKey', {
                tracker: tracker.label,
                key: tracker.key,
                link: (chunks) => (
                  <a
                    className="text-brand-700 underline"
                    href={tracker.url!}
                    target="_blank"
                    rel="noreferrer"
                  >
                    {chunks}
                  </a>
                ),
              })
            : t('results.tracker.newIssue', { tracker: tracker.label })}
        </span>
        <span>{stateLabel(tracker.state)}</span>
        {tracker.assignee && <span>{t('results.tracker.assignee', { name: tracker.assignee })}</span>}
        {tracker.title && (
          <span className="break-words">{t('results.tracker.issueTitle', { title: tracker.title })}</span>
        )}
      </p>
      {tracker.problem && (
        <Notice tone="error" className="px-3 py-2 text-xs">
          {say(tracker.problem)}
        </Notice>
      )}
    </div>
  );
}
