import type { ActionItem } from '@pulsecheck/shared/results/schemas';
import { TRACKER_MESSAGES, TRACKER_WORDS, type TrackerKind } from '@pulsecheck/shared/trackers/rules';
import { TrackerIssueLine } from './tracker-issue-line';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { Select } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { TOAST, toast } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/forms';
import { say, t } from '@/lib/i18n';
import {
  createTrackerIssue,
  linkTrackerIssue,
  resultsKeys,
  trackerRepositoriesQuery,
  unlinkTrackerIssue,
} from './api';

/**
 * An action item's tracker issue (issue 36): 'Create issue in …' (a repository from the tracker's list, the owner
 * assigned where the tracker finds them by e-mail) or 'Link existing issue' (its URL); once linked, the issue and
 * 'Unlink issue'.
 */
export function TrackerIssueDialog({
  healthCheckId,
  item,
  kind,
  label,
  open,
  onOpenChange,
}: {
  healthCheckId: string;
  item: ActionItem;
  kind: TrackerKind;
  label: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && (
        <DialogContent title={t('results.tracker.issue', { tracker: label })} description={item.description}>
          <TrackerIssueForms
            healthCheckId={healthCheckId}
            item={item}
            kind={kind}
            label={label}
            onDone={() => onOpenChange(false)}
          />
        </DialogContent>
      )}
    </Dialog>
  );
}

function TrackerIssueForms({
  healthCheckId,
  item,
  kind,
  label,
  onDone,
}: {
  healthCheckId: string;
  item: ActionItem;
  kind: TrackerKind;
  label: string;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: resultsKeys.results(healthCheckId) });
  const failed = (error: unknown) =>
    toast.error(say(errorMessage(error, t('results.tracker.failed'))), { duration: TOAST.error });
  const unlink = useMutation({ mutationFn: () => unlinkTrackerIssue(item.id), onSuccess: refresh });
  if (item.tracker)
    return (
      <div className="space-y-4">
        <TrackerIssueLine tracker={item.tracker} />
        <Button
          variant="secondary"
          disabled={unlink.isPending}
          onClick={() => unlink.mutate(undefined, { onSuccess: onDone, onError: failed })}
        >
          {say(TRACKER_MESSAGES.unlink)}
        </Button>
      </div>
    );
  return (
    <div className="space-y-6">
      <CreateIssue item={item} kind={kind} label={label} onCreated={() => void refresh().then(onDone)} />
      <LinkIssue item={item} kind={kind} onLinked={() => void refresh().then(onDone)} />
    </div>
  );
}

function CreateIssue({
  item,
  kind,
  label,
  onCreated,
}: {
  item: ActionItem;
  kind: TrackerKind;
  label: string;
  onCreated: () => void;
}) {
  const words = TRACKER_WORDS[kind];
  const repositories = useQuery(trackerRepositoriesQuery(item.id));
  const [repository, setRepository] = useState('');
  const [assignOwner, setAssignOwner] = useState(true);
  const [error, setError] = useState<string | undefined>();
  const create = useMutation({ mutationFn: () => createTrackerIssue(item.id, { repository, assignOwner }) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!repository) return setError(say(words.repositoryRequired));
    setError(undefined);
    create.mutate(undefined, {
      onSuccess: onCreated,
      onError: (failure) =>
        setError(
          failure instanceof ApiError && failure.fields
            ? Object.values(failure.fields).map(say)[0]
            : say(errorMessage(failure, t('results.tracker.failed'))),
        ),
    });
  };
  const heading = t('results.tracker.createIssue', { tracker: label });
  return (
    <form className="space-y-3" onSubmit={submit} noValidate aria-label={heading}>
      <h3 className="text-sm font-semibold text-slate-900">{heading}</h3>
      {repositories.isPending ? (
        <Spinner label={t('results.tracker.loadingPlaces', { kind })} />
      ) : repositories.isError ? (
        <Notice tone="error">{say(repositories.error.message)}</Notice>
      ) : repositories.data.length === 0 ? (
        <Notice tone="warning">{say(words.noRepositories)}</Notice>
      ) : (
        <>
          <FormField label={say(words.repository)} error={error}>
            <Select value={repository} onChange={(event) => setRepository(event.target.value)}>
              <option value="">{t('results.tracker.choose')}</option>
              {repositories.data.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </Select>
          </FormField>
          <CheckboxField
            label={say(TRACKER_MESSAGES.assignOwner)}
            checked={assignOwner}
            onCheckedChange={setAssignOwner}
          />
          <Button type="submit" disabled={create.isPending}>
            {heading}
          </Button>
        </>
      )}
    </form>
  );
}

function LinkIssue({ item, kind, onLinked }: { item: ActionItem; kind: TrackerKind; onLinked: () => void }) {
  const words = TRACKER_WORDS[kind];
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | undefined>();
  const link = useMutation({ mutationFn: () => linkTrackerIssue(item.id, url.trim()) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    link.mutate(undefined, {
      onSuccess: onLinked,
      onError: (failure) =>
        setError(
          say(
            failure instanceof ApiError && failure.fields?.url
              ? failure.fields.url
              : errorMessage(failure, t('results.tracker.failed')),
          ),
        ),
    });
  };
  return (
    <form className="space-y-3" onSubmit={submit} noValidate aria-label={say(TRACKER_MESSAGES.linkIssue)}>
      <h3 className="text-sm font-semibold text-slate-900">{say(TRACKER_MESSAGES.linkIssue)}</h3>
      <FormField label={say(words.issueUrl)} error={error}>
        <Input
          type="text"
          inputMode="url"
          autoComplete="off"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          placeholder={say(words.issueUrlPlaceholder)}
        />
      </FormField>
      <Button type="submit" variant="secondary" disabled={link.isPending}>
        {say(TRACKER_MESSAGES.linkIssue)}
      </Button>
    </form>
  );
}
