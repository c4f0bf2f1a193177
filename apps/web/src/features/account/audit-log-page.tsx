import {
  AUDIT_ACTION_KEYS,
  AUDIT_ACTIONS,
  AUDIT_MESSAGES,
  AUDIT_RETENTION,
  auditActorName,
  auditChangeLines,
  auditFilterSchema,
  auditRetentionSchema,
  type AuditEntry,
  type AuditFilter,
} from '@pulsecheck/shared/audit/log';
import { Download, ShieldCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button, SubmitButton } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { Select } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { LoadFailed } from '@/components/ui/state-card';
import { TableScroll } from '@/components/ui/table-scroll';
import { ApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { errorMessage } from '@/lib/forms';
import { formats, say, t } from '@/lib/i18n';
import { useActiveWorkspace } from '@/lib/workspaces';
import {
  exportHref,
  filterParams,
  useAuditLog,
  useSaveRetention,
  useVerifyAudit,
  type FilterText,
} from './audit-log-api';
import { SettingsFrame } from './settings-frame';

/**
 * /admin/account-settings/audit-log: the organisation's audit log (issue 37 item 3, decision 0026) for its owner
 * and organisation admins: the entries with filters kept in the URL (a filtered view can be shared and reloaded),
 * the exports of that view, Verify, and how long entries are kept. The server decides (`organization:audit`);
 * anyone else is told who may.
 */
export function AuditLogPage() {
  return (
    <SettingsFrame section="audit-log">
      <AuditLogContent />
    </SettingsFrame>
  );
}

function AuditLogContent() {
  const active = useActiveWorkspace();
  if (active.isPending) return <Spinner label={t('auditLog.loading')} className="py-12" />;
  if (active.isError)
    return (
      <LoadFailed
        title={say(AUDIT_MESSAGES.loadFailed)}
        message={errorMessage(active.error, '')}
        onRetry={() => void active.refetch()}
      />
    );
  if (!active.data?.organizationRole) return <Notice tone="info">{say(AUDIT_MESSAGES.notForYou)}</Notice>;
  return <AuditLog organizationId={active.data.organizationId} />;
}

const FILTER_KEYS = [
  'actor',
  'action',
  'target',
  'from',
  'to',
] as const satisfies readonly (keyof AuditFilter)[];
type FilterKey = (typeof FILTER_KEYS)[number];
type FieldErrors = Partial<Record<FilterKey, string>>;

function filterOf(params: URLSearchParams): FilterText {
  const filter: FilterText = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filter[key] = value;
  }
  return filter;
}

function AuditLog({ organizationId }: { organizationId: string }) {
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params);
  const filtered = Object.keys(filter).length > 0;
  const list = useAuditLog(organizationId, filter);
  // A filter the server refused (a shared link with a wrong date, say) is named at its field.
  const serverFields: FieldErrors =
    list.error instanceof ApiError && list.error.fields ? list.error.fields : {};
  const entries = list.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <div className="space-y-6">
      <SectionCard
        title={say(AUDIT_MESSAGES.title)}
        description={say(AUDIT_MESSAGES.intro)}
        contentClassName="space-y-6"
      >
        <FilterForm
          // A new URL (Back, a shared link) starts the form again from it.
          key={params.toString()}
          initial={filter}
          serverErrors={serverFields}
          onApply={(next) => setParams(filterParams(next))}
          onClear={() => setParams(new URLSearchParams())}
        />
        <div className="flex flex-wrap items-start gap-3">
          <Button variant="secondary" asChild>
            <a href={exportHref(organizationId, filter, 'csv')} download>
              <Download aria-hidden="true" />
              {say(AUDIT_MESSAGES.exportCsv)}
            </a>
          </Button>
          <Button variant="secondary" asChild>
            <a href={exportHref(organizationId, filter, 'jsonl')} download>
              <Download aria-hidden="true" />
              {say(AUDIT_MESSAGES.exportJsonl)}
            </a>
          </Button>
          <VerifyButton organizationId={organizationId} />
        </div>
        {list.isPending ? (
          <Spinner label={t('auditLog.loadingEntries')} className="py-8" />
        ) : list.isError && entries.length === 0 ? (
          <LoadFailed
            title={say(AUDIT_MESSAGES.loadFailed)}
            message={errorMessage(list.error, '')}
            onRetry={() => void list.refetch()}
          />
        ) : entries.length === 0 ? (
          <p className="text-sm text-slate-700">
            {filtered ? say(AUDIT_MESSAGES.empty) : say(AUDIT_MESSAGES.emptyAll)}
          </p>
        ) : (
          <>
            <EntriesTable entries={entries} />
            {list.isFetchNextPageError && (
              <p role="alert" className="text-sm text-red-700">
                {errorMessage(list.error, say(AUDIT_MESSAGES.loadFailed))}
              </p>
            )}
            {list.hasNextPage && (
              <Button
                variant="secondary"
                disabled={list.isFetchingNextPage}
                onClick={() => void list.fetchNextPage()}
              >
                {list.isFetchingNextPage ? t('auditLog.loadingMore') : say(AUDIT_MESSAGES.loadMore)}
              </Button>
            )}
          </>
        )}
      </SectionCard>
      {list.data?.pages[0] && (
        <RetentionCard organizationId={organizationId} initial={list.data.pages[0].retentionDays} />
      )}
    </div>
  );
}

function FilterForm({
  initial,
  serverErrors,
  onApply,
  onClear,
}: {
  initial: FilterText;
  serverErrors: FieldErrors;
  onApply: (filter: FilterText) => void;
  onClear: () => void;
}) {
  const [values, setValues] = useState<FilterText>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const shown = { ...serverErrors, ...errors };
  const field = (key: FilterKey) => ({
    value: values[key] ?? '',
    onChange: (event: { target: { value: string } }) => {
      setValues((current) => ({ ...current, [key]: event.target.value }));
      setErrors((current) => ({ ...current, [key]: undefined }));
    },
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const parsed = auditFilterSchema.safeParse(
      Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '')),
    );
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), say(issue.message)])),
      );
      return;
    }
    setErrors({});
    onApply(values);
  };
  return (
    <form onSubmit={apply} noValidate aria-label={say(AUDIT_MESSAGES.filters)} className="space-y-4">
      <h3 className="text-sm font-semibold text-slate-900">{say(AUDIT_MESSAGES.filters)}</h3>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <FormField label={say(AUDIT_MESSAGES.actor)} hint={say(AUDIT_MESSAGES.actorHint)} error={shown.actor}>
          <Input {...field('actor')} maxLength={320} autoComplete="off" spellCheck={false} />
        </FormField>
        <FormField label={say(AUDIT_MESSAGES.action)} error={shown.action}>
          <Select {...field('action')}>
            <option value="">{say(AUDIT_MESSAGES.anyAction)}</option>
            {AUDIT_ACTION_KEYS.map((action) => (
              <option key={action} value={action}>
                {say(AUDIT_ACTIONS[action])}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField
          label={say(AUDIT_MESSAGES.target)}
          hint={say(AUDIT_MESSAGES.targetHint)}
          error={shown.target}
        >
          <Input {...field('target')} maxLength={200} autoComplete="off" />
        </FormField>
        <FormField label={say(AUDIT_MESSAGES.from)} error={shown.from}>
          <Input {...field('from')} type="date" />
        </FormField>
        <FormField label={say(AUDIT_MESSAGES.to)} error={shown.to}>
          <Input {...field('to')} type="date" />
        </FormField>
      </div>
      <div className="flex flex-wrap gap-3">
        <Button type="submit">{say(AUDIT_MESSAGES.apply)}</Button>
        <Button
          variant="secondary"
          onClick={() => {
            setValues({});
            setErrors({});
            onClear();
          }}
        >
          {say(AUDIT_MESSAGES.clear)}
        </Button>
      </div>
    </form>
  );
}

function EntriesTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <TableScroll label={say(AUDIT_MESSAGES.entries)} className="rounded-lg border border-slate-200">
      <table className="w-full min-w-[40rem] text-start text-sm">
        <thead className="bg-slate-50 text-xs font-semibold text-slate-700">
          <tr>
            {[
              say(AUDIT_MESSAGES.time),
              say(AUDIT_MESSAGES.actor),
              say(AUDIT_MESSAGES.action),
              say(AUDIT_MESSAGES.target),
              say(AUDIT_MESSAGES.address),
              say(AUDIT_MESSAGES.changes),
            ].map((title) => (
              <th key={title} scope="col" className="px-3 py-2">
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {entries.map((entry) => (
            <tr key={entry.seq} data-testid="audit-entry" className="align-top">
              <td className="px-3 py-2 text-slate-700">
                <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
              </td>
              <td className="px-3 py-2 break-words text-slate-900">{auditActorName(entry, formats())}</td>
              <td className="px-3 py-2 text-slate-900">{say(AUDIT_ACTIONS[entry.action])}</td>
              <td className="px-3 py-2 break-words text-slate-900">
                {entry.targetLabel ?? entry.targetType}
              </td>
              <td className="px-3 py-2 font-mono text-xs whitespace-nowrap text-slate-700">
                {entry.ip ?? '—'}
              </td>
              <td className="px-3 py-2 text-slate-700">
                <ChangeLines entry={entry} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function ChangeLines({ entry }: { entry: AuditEntry }) {
  const lines = auditChangeLines(entry.changes, formats());
  if (lines.length === 0) return <>—</>;
  return (
    <ul className="space-y-0.5">
      {lines.map((line) => (
        <li key={line} className="break-words">
          {line}
        </li>
      ))}
    </ul>
  );
}

function VerifyButton({ organizationId }: { organizationId: string }) {
  const verify = useVerifyAudit(organizationId);
  const result = verify.data;
  return (
    <div className="flex min-w-0 flex-1 basis-64 flex-col gap-2">
      <Button
        variant="secondary"
        className="self-start"
        disabled={verify.isPending}
        onClick={() => verify.mutate()}
      >
        <ShieldCheck aria-hidden="true" />
        {verify.isPending ? say(AUDIT_MESSAGES.verifying) : say(AUDIT_MESSAGES.verify)}
      </Button>
      <p role="status" className="text-sm text-green-800">
        {result?.ok ? t(AUDIT_MESSAGES.verified, { count: result.checked }) : ''}
      </p>
      {result && !result.ok && result.brokenSeq !== null && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {t(AUDIT_MESSAGES.broken, { seq: result.brokenSeq })}
        </p>
      )}
      {verify.isError && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(verify.error, say(AUDIT_MESSAGES.verifyFailed))}
        </p>
      )}
    </div>
  );
}

function RetentionCard({ organizationId, initial }: { organizationId: string; initial: number }) {
  const save = useSaveRetention(organizationId);
  const [value, setValue] = useState(String(initial));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const parsed = auditRetentionSchema.safeParse({ retentionDays: value });
    if (!parsed.success) {
      setError(say(AUDIT_MESSAGES.retentionInvalid));
      return;
    }
    setError(null);
    try {
      await save.mutateAsync(parsed.data.retentionDays);
      setSaved(true);
    } catch (failure) {
      const field = failure instanceof ApiError ? failure.fields?.retentionDays : undefined;
      setError(field ?? errorMessage(failure, say(AUDIT_MESSAGES.saveFailed)));
    }
  };
  return (
    <SectionCard
      title={say(AUDIT_MESSAGES.retentionTitle)}
      description={t(AUDIT_MESSAGES.retentionHelp, {
        min: AUDIT_RETENTION.minDays,
        max: AUDIT_RETENTION.maxDays,
      })}
    >
      <form onSubmit={(event) => void submit(event)} noValidate className="space-y-3">
        <FormField label={t('auditLog.retentionLabel')} error={error ?? undefined}>
          <Input
            type="number"
            inputMode="numeric"
            min={AUDIT_RETENTION.minDays}
            max={AUDIT_RETENTION.maxDays}
            value={value}
            className="max-w-40"
            onChange={(event) => {
              setValue(event.target.value);
              setSaved(false);
              setError(null);
            }}
          />
        </FormField>
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton pending={save.isPending} busy={t('auditLog.saving')}>
            {say(AUDIT_MESSAGES.save)}
          </SubmitButton>
          <p role="status" className="text-sm text-green-800">
            {saved ? say(AUDIT_MESSAGES.saved) : ''}
          </p>
        </div>
      </form>
    </SectionCard>
  );
}
