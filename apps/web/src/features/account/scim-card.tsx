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
import { errorMessage } from '@/lib/forms';
import { useCreateScimToken, useScimSettings } from './scim-api';

/**
 * Account Settings → Security → 'SCIM provisioning' (issue 37): the base URL to give the identity provider, and the
 * organisation's token, created or rotated by its owner and shown once. Organisation admins see it read-only.
 */

const formatDate = (value: string) => new Date(value).toLocaleDateString();

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(`${what} copied`, { duration: TOAST.copy });
  } catch {
    toast.error(`Could not copy. Select the ${what.toLowerCase()} and copy it yourself.`);
  }
}

/** The new token, this once: only its hash is stored. */
function ShownOnce({ created, onDone }: { created: CreatedScimToken; onDone: () => void }) {
  return (
    <div className="space-y-4">
      <Notice tone="warning">{SCIM_CARD.shownOnce}</Notice>
      <FormField label={`New ${SCIM_CARD.tokenLabel}`}>
        <Input readOnly value={created.secret} className="font-mono" onFocus={(e) => e.target.select()} />
      </FormField>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={() => void copy(created.secret, 'Token')}>
          Copy token
        </Button>
        <Button onClick={onDone}>I have copied the token</Button>
      </div>
    </div>
  );
}

function TokenState({ settings }: { settings: ScimSettings }) {
  const { token } = settings;
  if (!token) return <p className="text-sm text-slate-700">{SCIM_CARD.noToken}</p>;
  return (
    <p className="text-sm text-slate-700">
      {SCIM_CARD.tokenLabel} <span className="font-mono">{token.start}…</span> · Created{' '}
      {formatDate(token.createdAt)} ·{' '}
      {token.lastUsedAt ? `Last used ${formatDate(token.lastUsedAt)}` : 'Never used'} ·{' '}
      {settings.provisionedUsers === 1
        ? '1 person provisioned'
        : `${settings.provisionedUsers} people provisioned`}
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
  if (!settings.mayManage) return <p className="text-sm text-slate-700">{SCIM_CARD.ownerOnly}</p>;
  const run = async () => {
    setFailure(null);
    try {
      const created = await create.mutateAsync();
      setConfirming(false);
      toast.success(settings.token ? SCIM_CARD.rotated : SCIM_CARD.created);
      onCreated(created);
    } catch (error) {
      setFailure(errorMessage(error, 'The token could not be created. Try again.'));
    }
  };
  return (
    <div className="space-y-3">
      {failure && <Notice tone="error">{failure}</Notice>}
      {settings.token && confirming ? (
        <div className="space-y-3">
          <Notice tone="warning">{SCIM_CARD.rotateWarning}</Notice>
          <div className="flex flex-wrap gap-3">
            <Button onClick={() => void run()} disabled={create.isPending}>
              {SCIM_CARD.rotate}
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <Button
          onClick={() => (settings.token ? setConfirming(true) : void run())}
          disabled={create.isPending}
        >
          {settings.token ? SCIM_CARD.rotate : SCIM_CARD.create}
        </Button>
      )}
    </div>
  );
}

export function ScimCard() {
  const settings = useScimSettings();
  const [created, setCreated] = useState<CreatedScimToken | null>(null);
  let body;
  if (settings.isPending) body = <Spinner label="Loading SCIM provisioning..." className="py-6" />;
  else if (settings.isError)
    body = (
      <LoadFailed
        title="SCIM provisioning could not be loaded"
        message={errorMessage(settings.error, '')}
        onRetry={() => void settings.refetch()}
      />
    );
  else {
    const data = settings.data;
    body = (
      <div className="space-y-4">
        <FormField label={SCIM_CARD.baseUrlLabel}>
          <Input readOnly value={data.baseUrl} className="font-mono" onFocus={(e) => e.target.select()} />
        </FormField>
        <div>
          <Button variant="secondary" onClick={() => void copy(data.baseUrl, 'Base URL')}>
            Copy base URL
          </Button>
        </div>
        {data.verifiedDomains.length > 0 ? (
          <p className="text-sm text-slate-700">
            People are provisioned at: <span className="break-all">{data.verifiedDomains.join(', ')}</span>
          </p>
        ) : (
          <Notice tone="info">{SCIM_CARD.domainsNeeded}</Notice>
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
    <SectionCard title={SCIM_CARD.title} description={SCIM_CARD.description}>
      {body}
    </SectionCard>
  );
}
