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
import { errorMessage } from '@/lib/forms';
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
      title={`${TRACKER_MESSAGES.title}: ${workspaceName}`}
      description={TRACKER_MESSAGES.intro}
      contentClassName="space-y-6"
    >
      {connection.isPending ? (
        <Spinner label="Loading the integration..." />
      ) : connection.isError ? (
        <LoadFailed
          title="The integration could not be loaded"
          message={connection.error.message}
          onRetry={() => void connection.refetch()}
        />
      ) : (
        <>
          {connection.data.connection ? (
            <Connected workspaceId={workspaceId} connection={connection.data.connection} secret={secret} />
          ) : (
            <p className="text-sm text-slate-700">{TRACKER_MESSAGES.notConnected}</p>
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
    toast.error(errorMessage(error, 'Something went wrong'), { duration: TOAST.error });
  return (
    <div className="space-y-4" data-testid="tracker-connection">
      <p className="text-sm font-medium text-slate-900">
        {connection.label}: {TRACKER_MESSAGES.connected(connection.account, connection.target)}
      </p>
      {connection.problem && <Notice tone="error">{connection.problem}</Notice>}
      <p className="text-xs text-slate-600">
        {connection.lastPolledAt
          ? `Last checked for changes ${new Date(connection.lastPolledAt).toLocaleString()}`
          : 'Checked for changes every 15 minutes'}
      </p>
      <CheckboxField
        label={TRACKER_MESSAGES.closeMarksDone}
        checked={connection.closeMarksDone}
        onCheckedChange={(closeMarksDone) =>
          settings.mutate(
            { closeMarksDone },
            {
              onSuccess: () => toast.success(TRACKER_MESSAGES.saved, { duration: TOAST.save }),
              onError: failed,
            },
          )
        }
      />
      <section className="space-y-2 rounded-md border border-slate-200 p-3" aria-labelledby="tracker-webhook">
        <h3 id="tracker-webhook" className="text-sm font-semibold text-slate-900">
          {TRACKER_MESSAGES.webhookTitle}
        </h3>
        <p className="text-sm text-slate-700">{TRACKER_WORDS[connection.kind].webhookHelp}</p>
        <p className="text-sm text-slate-900">
          Payload URL:{' '}
          <code className="font-mono text-sm break-all" data-testid="tracker-webhook-url">
            {connection.webhookUrl}
          </code>
        </p>
        {TRACKER_WORDS[connection.kind].secretFromTracker && (
          <SigningSecretForm workspaceId={workspaceId} saved={connection.webhookSecretSaved} />
        )}
        {secret && (
          <div className="space-y-1 rounded-md border border-amber-300 bg-amber-50 p-2">
            <p className="text-sm font-medium text-slate-900">{TRACKER_MESSAGES.webhookSecretOnce}</p>
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
          if (
            window.confirm(
              `Disconnect ${connection.label}? Action items stay; their issues are no longer synced.`,
            )
          )
            disconnect.mutate(undefined, {
              onSuccess: () => toast.success(TRACKER_MESSAGES.disconnected, { duration: TOAST.save }),
              onError: failed,
            });
        }}
      >
        Disconnect {connection.label}
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
    if (!value.trim()) return setError(TRACKER_MESSAGES.signingSecretRequired);
    settings.mutate(
      { webhookSecret: value.trim() },
      {
        onSuccess: () => {
          setValue('');
          toast.success(TRACKER_MESSAGES.saved, { duration: TOAST.save });
        },
        onError: (failure) =>
          setError(
            failure instanceof ApiError && failure.fields?.webhookSecret
              ? failure.fields.webhookSecret
              : errorMessage(failure, 'Something went wrong'),
          ),
      },
    );
  };
  return (
    <form className="space-y-2" onSubmit={submit} noValidate aria-label={TRACKER_MESSAGES.signingSecretSave}>
      <p className="text-sm text-slate-700" data-testid="tracker-signing-secret-state">
        {saved ? TRACKER_MESSAGES.signingSecretSaved : TRACKER_MESSAGES.signingSecretMissing}
      </p>
      <FormField label={TRACKER_MESSAGES.signingSecret} error={error}>
        <Input
          type="password"
          autoComplete="off"
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
      </FormField>
      <Button type="submit" size="sm" variant="secondary" disabled={settings.isPending}>
        {TRACKER_MESSAGES.signingSecretSave}
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
    if (!token.trim()) return setFields({ token: TRACKER_MESSAGES.tokenRequired });
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
          else toast.error(errorMessage(error, 'Something went wrong'), { duration: TOAST.error });
        },
      },
    );
  };
  return (
    <form className="space-y-4" onSubmit={submit} noValidate aria-label="Connect a tracker">
      <h3 className="text-sm font-semibold text-slate-900">
        {replacing ? 'Save a new token' : 'Connect a tracker'}
      </h3>
      {connected && <Notice tone="success">{connected}</Notice>}
      <FormField label="Tracker" error={fields.kind}>
        <Select value={kind} onChange={(event) => setKind(event.target.value as TrackerKind)}>
          {TRACKER_KINDS.map((k) => (
            <option key={k} value={k}>
              {TRACKER_LABELS[k]}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField label={words.baseUrlLabel} error={fields.baseUrl} hint={words.baseUrlHelp}>
        <Input
          type="url"
          inputMode="url"
          autoComplete="off"
          value={baseUrl}
          onChange={(event) => setBaseUrl(event.target.value)}
          placeholder={words.baseUrlPlaceholder}
        />
      </FormField>
      {words.email && (
        <FormField label={TRACKER_MESSAGES.emailLabel} error={fields.email} hint={words.email.help}>
          <Input
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </FormField>
      )}
      <FormField label="Token" error={fields.token} hint={words.tokenHelp}>
        <Input
          type="password"
          autoComplete="off"
          value={token}
          onChange={(event) => setToken(event.target.value)}
        />
      </FormField>
      <Button type="submit" disabled={connect.isPending}>
        {connect.isPending ? 'Testing the token…' : replacing ? 'Save token' : 'Connect'}
      </Button>
    </form>
  );
}
