import type { TrackerIssue } from '@pulsecheck/shared/trackers/rules';
import { TRACKER_MESSAGES } from '@pulsecheck/shared/trackers/rules';
import { Notice } from '@/components/ui/notice';

const STATE_LABELS: Record<TrackerIssue['state'], string> = {
  creating: TRACKER_MESSAGES.creating,
  open: 'Open',
  closed: 'Closed',
};

/** The linked issue as the action item shows it: key (a link), state, assignee, title; and a failure with what to do. */
export function TrackerIssueLine({ tracker }: { tracker: TrackerIssue }) {
  return (
    <div className="space-y-1" data-testid="tracker-issue">
      <p className="flex flex-wrap gap-x-3 text-xs text-slate-700">
        <span>
          {tracker.label}:{' '}
          {tracker.key && tracker.url ? (
            <a className="text-brand-700 underline" href={tracker.url} target="_blank" rel="noreferrer">
              {tracker.key}
            </a>
          ) : (
            'new issue'
          )}
        </span>
        <span>{STATE_LABELS[tracker.state]}</span>
        {tracker.assignee && <span>Assignee: {tracker.assignee}</span>}
        {tracker.title && <span className="break-words">“{tracker.title}”</span>}
      </p>
      {tracker.problem && (
        <Notice tone="error" className="px-3 py-2 text-xs">
          {tracker.problem}
        </Notice>
      )}
    </div>
  );
}
