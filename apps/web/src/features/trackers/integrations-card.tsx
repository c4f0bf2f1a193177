import {
  TRACKER_KINDS,
  TRACKER_LABELS,
  TRACKER_MESSAGES,
  TRACKER_WORDS,
  type TrackerConnection,
  type TrackerKind,
} from '@pulsecheck/shared/trackers/rules';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { Select } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { LoadFailed } from '@/components/ui/state-card';
import { toast, TOAST } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { errorMessage } from '@/lib/forms';
import { say, t, tRich } from '@/lib/i18n';
import { useConnectTracker, useDisconnectTracker, useTrackerConnection, useTrackerSettings } from './api';

/**
 * Workspace Settings → 'Integrations' (issue 36): connect the workspace's tracker (tested on save, the token never
 * shown again), the webhook to set up in the tracker (its secret shown once), whether closing an issue marks its
 * action done, and the last failure with what to do.
 */
export function IntegrationsCard({
  workspaceId,
  workspaceName,
}: {
  workspaceId: string;
  workspaceName: string;
}) {
  const connection = useTrackerConnection(workspaceId);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <SectionCard
      title={t('trackers.cardTitle', { title: say(TRACKER_MESSAGES.title), workspace: workspaceName })}
      description={say(TRACKER_MESSAGES.intro)}
      contentClassName="space-y-6"
    >
      {connection.isPending ? (
        <Spinner label={t('trackers.loading')} />
      ) : connection.isError ? (
        <LoadFailed
          title={t('trackers.loadFailed')}
          message={connection.error.message}
          onRetry={() => void connection.refetch()}
        />
      ) : (
        <>
          {connection.data.connection ? (
            <Connected workspaceId={workspaceId} connection={connection.data.connection} secret={secret} />
          ) : (
            <p className="text-sm text-slate-700">{say(TRACKER_MESSAGES.notConnected)}</p>
          )}
          <ConnectForm
            workspaceId={workspaceId}
            replacing={connection.data.connection}
            onConnected={(webhookSecret) => setSecret(webhookSecret)}
          />
        </>
      )}
    </SectionCard>
  );
}

function Connected({
  workspaceId,
  connection,
  secret,
}: {
  workspaceId: string;
  connection: TrackerConnection;
  secret: string | null;
}) {
  const settings = useTrackerSettings(workspaceId);
  const disconnect = useDisconnectTracker(workspaceId);
  const failed = (error: unknown) =>
    toast.error(errorMessage(error, t('trackers.failed')), { duration: TOAST.error });
  return (
    <div className="space-y-4" data-testid="tracker-connection">
      <p className="text-sm font-medium text-slate-900">
        {t('trackers.connection', {
          label: connection.label,
          message: t(TRACKER_MESSAGES.connected, { account: connection.account, target: connection.target }),
        })}
      </p>
      {connection.problem && <Notice tone="error">{say(connection.problem)}</Notice>}
      <p className="text-xs text-slate-600">
        {connection.lastPolledAt
          ? t('trackers.lastChecked', { date: formatDateTime(connection.lastPolledAt) })
          : t('trackers.checkedEvery', { minutes: 15 })}
      </p>
      <CheckboxField
        label={say(TRACKER_MESSAGES.closeMarksDone)}
        checked={connection.closeMarksDone}
        onCheckedChange={(closeMarksDone) =>
          settings.mutate(
            { closeMarksDone },
            {
              onSuccess: () => toast.success(say(TRACKER_MESSAGES.saved), { duration: TOAST.save }),
              onError: failed,
            },
          )
        }
      />
      <section className="space-y-2 rounded-md border border-slate-200 p-3" aria-labelledby="tracker-webhook">
        <h3 id="tracker-webhook" className="text-sm font-semibold text-slate-900">
          {say(TRACKER_MESSAGES.webhookTitle)}
        </h3>
        <p className="text-sm text-slate-700">{say(TRACKER_WORDS[connection.kind].webhookHelp)}</p>
        <p className="text-sm text-slate-900">
          {tRich('trackers.payloadUrl', {
            url: connection.webhookUrl,
            code: (chunks) => (
              <code className="font-mono text-sm break-all" data-testid="tracker-webhook-url">
                {chunks}
              </code>
            ),
          })}
        </p>
        {TRACKER_WORDS[connection.kind].secretFromTracker && (
          <SigningSecretForm workspaceId={workspaceId} saved={connection.webhookSecretSaved} />
        )}
        {secret && (
          <div className="space-y-1 rounded-md border border-amber-300 bg-amber-50 p-2">
            <p className="text-sm font-medium text-slate-900">{say(TRACKER_MESSAGES.webhookSecretOnce)}</p>
            <code className="block font-mono text-sm break-all" data-testid="tracker-webhook-secret">
              {secret}
            </code>
          </div>
        )}
      </section>
      <Button
        variant="danger"
        size="sm"
        disabled={disconnect.isPending}
        onClick={() => {
          if (window.confirm(t('trackers.confirmDisconnect', { label: connection.label })))
            disconnect.mutate(undefined, {
              onSuccess: () => toast.success(say(TRACKER_MESSAGES.disconnected), { duration: TOAST.save }),
              onError: failed,
            });
        }}
      >
        {t('trackers.disconnect', { label: connection.label })}
      </Button>
    </div>
  );
}

/** The vendors' clouds: connecting to them needs no address. */
const CLOUD_TARGETS = new Set(['github.com', 'gitlab.com', 'linear.app']);

/** The signing secret of a tracker that makes its own (Linear shows it once the webhook is added). */
function SigningSecretForm({ workspaceId, saved }: { workspaceId: string; saved: boolean }) {
  const settings = useTrackerSettings(workspaceId);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    if (!value.trim()) return setError(say(TRACKER_MESSAGES.signingSecretRequired));
    settings.mutate(
      { webhookSecret: value.trim() },
      {
        onSuccess: () => {
          setValue('');
          toast.success(say(TRACKER_MESSAGES.saved), { duration: TOAST.save });
        },
        onError: (failure) =>
          setError(
            failure instanceof ApiError && failure.fields?.webhookSecret
              ? failure.fields.webhookSecret
              : errorMessage(failure, t('trackers.failed')),
          ),
      },
    );
  };
  return (
    <form
      className="space-y-2"
      onSubmit={submit}
      noValidate
      aria-label={say(TRACKER_MESSAGES.signingSecretSave)}
    >
      <p className="text-sm text-slate-700" data-testid="tracker-signing-secret-state">
        {say(saved ? TRACKER_MESSAGES.signingSecretSaved : TRACKER_MESSAGES.signingSecretMissing)}
      </p>
      <FormField label={say(TRACKER_MESSAGES.signingSecret)} error={error}>
        <Input
          type="password"
          autoComplete="off"
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
      </FormField>
      <Button type="submit" size="sm" variant="secondary" disabled={settings.isPending}>
        {say(TRACKER_MESSAGES.signingSecretSave)}
      </Button>
    </form>
  );
}

function ConnectForm({
  workspaceId,
  replacing,
  onConnected,
}: {
  workspaceId: string;
  replacing: TrackerConnection | null;
  onConnected: (webhookSecret: string | null) => void;
}) {
  const connect = useConnectTracker(workspaceId);
  const [kind, setKind] = useState<TrackerKind>(replacing?.kind ?? 'github');
  const [baseUrl, setBaseUrl] = useState(
    replacing && !CLOUD_TARGETS.has(replacing.target) ? `https://${replacing.target}` : '',
  );
  const [email, setEmail] = useState('');
  const words = TRACKER_WORDS[kind];
  const [token, setToken] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [connected, setConnected] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFields({});
    setConnected(null);
    if (!token.trim()) return setFields({ token: say(TRACKER_MESSAGES.tokenRequired) });
    connect.mutate(
      {
        kind,
        baseUrl: baseUrl.trim(),
        token,
        ...(words.email && email.trim() ? { email: email.trim() } : {}),
        closeMarksDone: replacing?.closeMarksDone ?? true,
      },
      {
        onSuccess: (answer) => {
          setToken('');
          setConnected(answer.message);
          onConnected(answer.webhookSecret);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields) setFields(error.fields);
          else toast.error(errorMessage(error, t('trackers.failed')), { duration: TOAST.error });
        },
      },
    );
  };
  return (
    <form className="space-y-4" onSubmit={submit} noValidate aria-label={t('trackers.connectTitle')}>
      <h3 className="text-sm font-semibold text-slate-900">
        {replacing ? t('trackers.newTokenTitle') : t('trackers.connectTitle')}
      </h3>
      {connected && <Notice tone="success">{connected}</Notice>}
      <FormField label={t('trackers.tracker')} error={fields.kind}>
        <Select value={kind} onChange={(event) => setKind(event.target.value as TrackerKind)}>
          {TRACKER_KINDS.map((k) => (
            // A product's name, the same in every language.
            <option key={k} value={k} translate="no">
              {say(TRACKER_LABELS[k])}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField label={say(words.baseUrlLabel)} error={fields.baseUrl} hint={say(words.baseUrlHelp)}>
        <Input
          type="url"
          inputMode="url"
          autoComplete="off"
          value={baseUrl}
          onChange={(event) => setBaseUrl(event.target.value)}
          placeholder={say(words.baseUrlPlaceholder)}
        />
      </FormField>
      {words.email && (
        <FormField label={say(TRACKER_MESSAGES.emailLabel)} error={fields.email} hint={say(words.email.help)}>
          <Input
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </FormField>
      )}
      <FormField label={t('trackers.token')} error={fields.token} hint={say(words.tokenHelp)}>
        <Input
          type="password"
          autoComplete="off"
          value={token}
          onChange={(event) => setToken(event.target.value)}
        />
      </FormField>
      <Button type="submit" disabled={connect.isPending}>
        {connect.isPending
          ? t('trackers.testing')
          : replacing
            ? t('trackers.saveToken')
            : t('trackers.connect')}
      </Button>
    </form>
  );
}
