import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_MESSAGES,
  type Webhook,
  type WebhookEventType,
} from '@pulsecheck/shared/webhooks/events';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { LoadFailed } from '@/components/ui/state-card';
import { toast, TOAST } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/forms';
import { ApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { say, t } from '@/lib/i18n';
import {
  useChangeWebhook,
  useCreateWebhook,
  useDeleteWebhook,
  useDeliveries,
  useQueueDelivery,
  useWebhooks,
  type WebhookScope,
} from './api';

/**
 * The 'Webhooks' card (issue 35 item 3): add a webhook (URL and events), its signing secret shown once, and per
 * webhook pause/resume, delete, 'Send a test event' and its 'Deliveries' with 'Send again'.
 */
export function WebhooksCard({ scope, title }: { scope: WebhookScope; title: string }) {
  const webhooks = useWebhooks(scope);
  return (
    <SectionCard
      title={title}
      description={
        scope.kind === 'workspace'
          ? t('webhooks.descriptionWorkspace')
          : t('webhooks.descriptionOrganisation')
      }
      contentClassName="space-y-6"
    >
      <AddWebhook scope={scope} />
      {webhooks.isPending ? (
        <Spinner label={t('webhooks.loading')} />
      ) : webhooks.isError ? (
        <LoadFailed
          title={t('webhooks.loadFailed')}
          message={webhooks.error.message}
          onRetry={() => void webhooks.refetch()}
        />
      ) : webhooks.data.webhooks.length === 0 ? (
        <p className="text-sm text-slate-600">{say(WEBHOOK_MESSAGES.none)}</p>
      ) : (
        <ul className="space-y-4" aria-label={title}>
          {webhooks.data.webhooks.map((webhook) => (
            <WebhookItem key={webhook.id} scope={scope} webhook={webhook} />
          ))}
        </ul>
      )}
    </SectionCard>
  );
}

function AddWebhook({ scope }: { scope: WebhookScope }) {
  const create = useCreateWebhook(scope);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [secret, setSecret] = useState<string | null>(null);
  const legend = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFields({});
    if (events.length === 0) return setFields({ events: say(WEBHOOK_MESSAGES.eventsRequired) });
    create.mutate(
      { url: url.trim(), events },
      {
        onSuccess: (created) => {
          setSecret(created.secret);
          setUrl('');
          setEvents([]);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields) setFields(error.fields);
          else toast.error(errorMessage(error, t('webhooks.failed')), { duration: TOAST.error });
        },
      },
    );
  };
  return (
    <div className="space-y-4">
      {secret && (
        <div className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3">
          <p className="text-sm font-medium text-slate-900">{say(WEBHOOK_MESSAGES.secretOnce)}</p>
          <code
            className="block rounded bg-white px-2 py-1 font-mono text-sm break-all"
            data-testid="webhook-secret"
          >
            {secret}
          </code>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              size="sm"
              onClick={() =>
                void navigator.clipboard
                  .writeText(secret)
                  .then(() => toast.success(t('webhooks.secretCopied'), { duration: TOAST.copy }))
                  .catch(() => toast.error(t('webhooks.copyFailed'), { duration: TOAST.error }))
              }
            >
              {say(WEBHOOK_MESSAGES.copy)}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setSecret(null)}>
              {t('common.done')}
            </Button>
          </div>
        </div>
      )}
      <form className="space-y-4" onSubmit={submit} noValidate>
        <FormField label={say(WEBHOOK_MESSAGES.url)} error={fields.url} hint={t('webhooks.httpsOnly')}>
          <Input
            type="url"
            inputMode="url"
            autoComplete="off"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            placeholder="https://example.com/hooks/pulsecheck"
          />
        </FormField>
        <fieldset className="space-y-2" aria-describedby={fields.events ? `${legend}-error` : undefined}>
          <legend id={legend} className="text-sm font-medium text-slate-900">
            {say(WEBHOOK_MESSAGES.events)}
          </legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {WEBHOOK_EVENTS.map((type) => (
              <CheckboxField
                key={type}
                label={say(WEBHOOK_EVENT_LABELS[type])}
                hint={type}
                technical="hint"
                checked={events.includes(type)}
                onCheckedChange={(checked) =>
                  setEvents((current) => (checked ? [...current, type] : current.filter((e) => e !== type)))
                }
              />
            ))}
          </div>
          {fields.events && (
            <p id={`${legend}-error`} role="alert" className="text-sm text-red-700">
              {fields.events}
            </p>
          )}
        </fieldset>
        <Button type="submit" disabled={create.isPending}>
          {say(WEBHOOK_MESSAGES.add)}
        </Button>
      </form>
    </div>
  );
}

function WebhookItem({ scope, webhook }: { scope: WebhookScope; webhook: Webhook }) {
  const change = useChangeWebhook(scope);
  const remove = useDeleteWebhook(scope);
  const queue = useQueueDelivery(webhook.id);
  const [open, setOpen] = useState(false);
  const nameId = useId();
  const failed = (error: unknown) =>
    toast.error(errorMessage(error, t('webhooks.failed')), { duration: TOAST.error });
  return (
    <li className="space-y-3 rounded-md border border-slate-200 p-3" aria-labelledby={nameId}>
      <div className="space-y-1">
        <p id={nameId} className="font-mono text-sm break-all text-slate-900">
          {webhook.url}
        </p>
        <p className="text-xs text-slate-600">
          {t('webhooks.state', { paused: webhook.paused ? 'yes' : 'no', events: webhook.events.join(', ') })}
        </p>
        {webhook.pausedReason && <Notice tone="error">{say(webhook.pausedReason)}</Notice>}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          aria-describedby={nameId}
          disabled={change.isPending}
          onClick={() => change.mutate({ id: webhook.id, paused: !webhook.paused }, { onError: failed })}
        >
          {say(webhook.paused ? WEBHOOK_MESSAGES.resume : WEBHOOK_MESSAGES.pause)}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          aria-describedby={nameId}
          disabled={queue.isPending}
          onClick={() =>
            queue.mutate(undefined, {
              onSuccess: () => {
                setOpen(true);
                toast.success(t('webhooks.testQueued'), { duration: TOAST.save });
              },
              onError: failed,
            })
          }
        >
          {say(WEBHOOK_MESSAGES.sendTest)}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={open}
          aria-describedby={nameId}
          onClick={() => setOpen(!open)}
        >
          {say(WEBHOOK_MESSAGES.deliveries)}
        </Button>
        <Button
          variant="danger"
          size="sm"
          aria-describedby={nameId}
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm(t('webhooks.confirmDelete', { url: webhook.url })))
              remove.mutate(webhook.id, { onError: failed });
          }}
        >
          {say(WEBHOOK_MESSAGES.delete)}
        </Button>
      </div>
      {open && <Deliveries webhookId={webhook.id} />}
    </li>
  );
}

/** A delivery's status, in the app's language (a function: the catalogue is not loaded when modules load). */
const statusLabel = (status: 'pending' | 'delivered' | 'failed') =>
  ({
    pending: t('webhooks.status.pending'),
    delivered: t('webhooks.status.delivered'),
    failed: t('webhooks.status.failed'),
  })[status];

function Deliveries({ webhookId }: { webhookId: string }) {
  const deliveries = useDeliveries(webhookId, true);
  const queue = useQueueDelivery(webhookId);
  if (deliveries.isPending) return <Spinner label={t('webhooks.loadingDeliveries')} />;
  if (deliveries.isError)
    return (
      <LoadFailed
        title={t('webhooks.deliveriesFailed')}
        message={deliveries.error.message}
        onRetry={() => void deliveries.refetch()}
      />
    );
  if (deliveries.data.deliveries.length === 0)
    return <p className="text-sm text-slate-600">{say(WEBHOOK_MESSAGES.noDeliveries)}</p>;
  return (
    <section aria-label={say(WEBHOOK_MESSAGES.deliveries)}>
      <ul className="space-y-2">
        {deliveries.data.deliveries.map((delivery) => {
          const last = delivery.attempts.at(-1);
          return (
            <li
              key={delivery.id}
              className="space-y-1 rounded border border-slate-200 p-2 text-sm"
              data-testid="delivery"
            >
              <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="font-mono">{delivery.type}</span>
                <span>{statusLabel(delivery.status)}</span>
                <span className="text-slate-600">{formatDateTime(delivery.createdAt)}</span>
                <Button
                  variant="link"
                  size="sm"
                  className="h-auto px-0"
                  aria-label={t('webhooks.sendAgainLabel', {
                    action: say(WEBHOOK_MESSAGES.sendAgain),
                    type: delivery.type,
                    date: formatDateTime(delivery.createdAt),
                  })}
                  disabled={queue.isPending}
                  onClick={() =>
                    queue.mutate(delivery.id, {
                      onError: (error) =>
                        toast.error(errorMessage(error, t('webhooks.failed')), { duration: TOAST.error }),
                    })
                  }
                >
                  {say(WEBHOOK_MESSAGES.sendAgain)}
                </Button>
              </p>
              {delivery.attempts.length > 0 && (
                <ol className="space-y-0.5 ps-4 text-xs text-slate-700" aria-label={t('webhooks.attempts')}>
                  {delivery.attempts.map((attempt) => (
                    <li key={attempt.at}>
                      {t('webhooks.attempt', {
                        date: formatDateTime(attempt.at),
                        ok: attempt.ok ? 'yes' : 'no',
                        detail: attempt.statusCode !== null ? 'code' : attempt.error ? 'error' : 'none',
                        code: String(attempt.statusCode ?? ''),
                        error: attempt.error ?? '',
                      })}
                    </li>
                  ))}
                </ol>
              )}
              {!last && <p className="text-xs text-slate-600">{t('webhooks.notSent')}</p>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
