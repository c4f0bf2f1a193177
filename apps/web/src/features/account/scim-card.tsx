import { SCIM_CARD, type CreatedScimToken, type ScimSettings } from '@pulsecheck/shared/scim/rules';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { LoadFailed } from '@/components/ui/state-card';
import { toast, TOAST } from '@/components/ui/toaster';
import { formatDate } from '@/lib/dates';
import { errorMessage } from '@/lib/forms';
import { formats, say, t, tRich } from '@/lib/i18n';
import { useCreateScimToken, useScimSettings } from './scim-api';

/**
 * Account Settings → Security → 'SCIM provisioning' (issue 37): the base URL to give the identity provider, and the
 * organisation's token, created or rotated by its owner and shown once. Organisation admins see it read-only.
 */

/** Copies `text`, and says so: `what` names it in the messages (`token` or `baseUrl`). */
async function copy(text: string, what: 'token' | 'baseUrl') {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(t('accountScim.copied', { what }), { duration: TOAST.copy });
  } catch {
    toast.error(t('accountScim.copyFailed', { what }));
  }
}

/** The new token, this once: only its hash is stored. */
function ShownOnce({ created, onDone }: { created: CreatedScimToken; onDone: () => void }) {
  return (
    <div className="space-y-4">
      <Notice tone="warning">{say(SCIM_CARD.shownOnce)}</Notice>
      <FormField label={t('accountScim.newToken')}>
        <Input readOnly value={created.secret} className="font-mono" onFocus={(e) => e.target.select()} />
      </FormField>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={() => void copy(created.secret, 'token')}>
          {t('accountScim.copyToken')}
        </Button>
        <Button onClick={onDone}>{t('accountScim.copiedToken')}</Button>
      </div>
    </div>
  );
}

function TokenState({ settings }: { settings: ScimSettings }) {
  const { token } = settings;
  if (!token) return <p className="text-sm text-slate-700">{say(SCIM_CARD.noToken)}</p>;
  return (
    <p className="text-sm text-slate-700">
      {tRich('accountScim.tokenStart', {
        mono: (chunks) => <span className="font-mono">{chunks}</span>,
        start: token.start,
      })}{' '}
      · {t('accountScim.created', { date: formatDate(token.createdAt) })} ·{' '}
      {token.lastUsedAt
        ? t('accountScim.lastUsed', { date: formatDate(token.lastUsedAt) })
        : t('accountScim.neverUsed')}{' '}
      · {t('accountScim.provisioned', { count: settings.provisionedUsers })}
    </p>
  );
}

function TokenActions({
  settings,
  onCreated,
}: {
  settings: ScimSettings;
  onCreated: (c: CreatedScimToken) => void;
}) {
  const create = useCreateScimToken();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!settings.mayManage) return <p className="text-sm text-slate-700">{say(SCIM_CARD.ownerOnly)}</p>;
  const run = async () => {
    setFailure(null);
    try {
      const created = await create.mutateAsync();
      setConfirming(false);
      toast.success(say(settings.token ? SCIM_CARD.rotated : SCIM_CARD.created));
      onCreated(created);
    } catch (error) {
      setFailure(errorMessage(error, t('accountScim.createFailed')));
    }
  };
  return (
    <div className="space-y-3">
      {failure && <Notice tone="error">{failure}</Notice>}
      {settings.token && confirming ? (
        <div className="space-y-3">
          <Notice tone="warning">{say(SCIM_CARD.rotateWarning)}</Notice>
          <div className="flex flex-wrap gap-3">
            <Button onClick={() => void run()} disabled={create.isPending}>
              {say(SCIM_CARD.rotate)}
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
          </div>
        </div>
      ) : (
        <Button
          onClick={() => (settings.token ? setConfirming(true) : void run())}
          disabled={create.isPending}
        >
          {say(settings.token ? SCIM_CARD.rotate : SCIM_CARD.create)}
        </Button>
      )}
    </div>
  );
}

export function ScimCard() {
  const settings = useScimSettings();
  const [created, setCreated] = useState<CreatedScimToken | null>(null);
  let body;
  if (settings.isPending) body = <Spinner label={t('accountScim.loading')} className="py-6" />;
  else if (settings.isError)
    body = (
      <LoadFailed
        title={t('accountScim.loadFailed')}
        message={errorMessage(settings.error, '')}
        onRetry={() => void settings.refetch()}
      />
    );
  else {
    const data = settings.data;
    body = (
      <div className="space-y-4">
        <FormField label={say(SCIM_CARD.baseUrlLabel)}>
          <Input readOnly value={data.baseUrl} className="font-mono" onFocus={(e) => e.target.select()} />
        </FormField>
        <div>
          <Button variant="secondary" onClick={() => void copy(data.baseUrl, 'baseUrl')}>
            {t('accountScim.copyBaseUrl')}
          </Button>
        </div>
        {data.verifiedDomains.length > 0 ? (
          <p className="text-sm text-slate-700">
            {tRich('accountScim.provisionedAt', {
              domains: (chunks) => <span className="break-all">{chunks}</span>,
              list: formats().list(data.verifiedDomains),
            })}
          </p>
        ) : (
          <Notice tone="info">{say(SCIM_CARD.domainsNeeded)}</Notice>
        )}
        {created ? (
          <ShownOnce created={created} onDone={() => setCreated(null)} />
        ) : (
          <>
            <TokenState settings={data} />
            <TokenActions settings={data} onCreated={setCreated} />
          </>
        )}
      </div>
    );
  }
  return (
    <SectionCard title={say(SCIM_CARD.title)} description={say(SCIM_CARD.description)}>
      {body}
    </SectionCard>
  );
}
