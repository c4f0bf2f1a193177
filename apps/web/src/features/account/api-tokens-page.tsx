import {
  API_SCOPE_LABELS,
  API_SCOPES,
  API_TOKEN_EXPIRIES,
  API_TOKEN_MESSAGES,
  createApiTokenSchema,
  expiryLabel,
  type ApiScope,
  type ApiToken,
  type ApiTokenExpiry,
  type CreatedApiToken,
} from '@pulsecheck/shared/api-tokens/rules';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
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
import { errorMessage } from '@/lib/forms';
import { useApiTokens, useCreateApiToken, useRevokeApiToken, type TokenOwner } from './api-tokens-api';
import { ActionForm } from './security-page';
import { useSecurity } from './security-api';
import { SettingsFrame } from './settings-frame';

/** /admin/account-settings/api-tokens: the 'API tokens' tab (issue 35, docs/api/tokens.md). */
export function ApiTokensPage() {
  const security = useSecurity();
  return (
    <SettingsFrame section="api-tokens">
      <div className="space-y-6">
        <TokensCard
          owner="account"
          title="Personal tokens"
          description="A token acts as you, for scripts and tools: it can do only what you can, and only what its scopes allow. Send it as Authorization: Bearer pc_…"
        />
        {security.data?.organization?.administers && (
          <TokensCard
            owner="organization"
            title="Organisation tokens"
            description={`Tokens of ${security.data.organization.name}, not of a person: they read with organisation-admin rights, limited by their scopes, and keep working when whoever made them leaves.`}
          />
        )}
      </div>
    </SettingsFrame>
  );
}

const formatDate = (value: string) => new Date(value).toLocaleDateString();

function TokensCard({
  owner,
  title,
  description,
}: {
  owner: TokenOwner;
  title: string;
  description: string;
}) {
  const tokens = useApiTokens(owner);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  return (
    <SectionCard title={title} description={description} contentClassName="space-y-6">
      {created ? (
        <ShownOnce created={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateTokenForm owner={owner} onCreated={setCreated} />
      )}
      {tokens.isPending ? (
        <Spinner label="Loading tokens..." />
      ) : tokens.isError ? (
        <LoadFailed
          title={API_TOKEN_MESSAGES.loadFailed}
          message={errorMessage(tokens.error, '')}
          onRetry={() => void tokens.refetch()}
        />
      ) : (
        <TokenList owner={owner} tokens={tokens.data.tokens} label={title} />
      )}
    </SectionCard>
  );
}

/** The new token's secret, this once: it is stored only as a hash. */
function ShownOnce({ created, onDone }: { created: CreatedApiToken; onDone: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      toast.success('Token copied', { duration: TOAST.copy });
    } catch {
      toast.error('Could not copy. Select the token and copy it yourself.');
    }
  };
  return (
    <div className="space-y-4">
      <Notice tone="warning">{API_TOKEN_MESSAGES.created}</Notice>
      <FormField label={`New token "${created.token.name}"`}>
        <Input readOnly value={created.secret} className="font-mono" onFocus={(e) => e.target.select()} />
      </FormField>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={() => void copy()}>
          Copy token
        </Button>
        <Button onClick={onDone}>I have copied the token</Button>
      </div>
    </div>
  );
}

function CreateTokenForm({
  owner,
  onCreated,
}: {
  owner: TokenOwner;
  onCreated: (created: CreatedApiToken) => void;
}) {
  const create = useCreateApiToken(owner);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiScope[]>([]);
  const [expiry, setExpiry] = useState<ApiTokenExpiry>(90);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async () => {
    const input = { name, scopes, expiresInDays: expiry };
    const parsed = createApiTokenSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])),
      );
      return;
    }
    setErrors({});
    const answer = await create.mutateAsync(input);
    setName('');
    setScopes([]);
    onCreated(answer);
  };
  return (
    <ActionForm submit="Create token" busy="Creating..." onSubmit={submit}>
      <FormField label="Token name" error={errors.name} hint="What it is for, e.g. Team dashboard">
        <Input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} required />
      </FormField>
      <fieldset className="space-y-2" aria-describedby={errors.scopes ? `${owner}-scopes-error` : undefined}>
        <legend className="text-sm font-medium text-slate-900">Scopes</legend>
        {API_SCOPES.map((scope) => (
          <CheckboxField
            key={scope}
            label={scope}
            hint={API_SCOPE_LABELS[scope]}
            checked={scopes.includes(scope)}
            onCheckedChange={(checked) =>
              setScopes((current) => (checked ? [...current, scope] : current.filter((s) => s !== scope)))
            }
          />
        ))}
        {errors.scopes && (
          <p id={`${owner}-scopes-error`} role="alert" className="text-sm text-red-700">
            {errors.scopes}
          </p>
        )}
      </fieldset>
      <FormField label="Expires">
        <Select
          value={expiry === null ? 'none' : String(expiry)}
          onChange={(e) =>
            setExpiry(e.target.value === 'none' ? null : (Number(e.target.value) as ApiTokenExpiry))
          }
        >
          {API_TOKEN_EXPIRIES.map((days) => (
            <option key={String(days)} value={days === null ? 'none' : String(days)}>
              {expiryLabel(days)}
            </option>
          ))}
        </Select>
      </FormField>
    </ActionForm>
  );
}

function TokenList({ owner, tokens, label }: { owner: TokenOwner; tokens: ApiToken[]; label: string }) {
  const revoke = useRevokeApiToken(owner);
  if (tokens.length === 0)
    return (
      <p className="text-sm text-slate-700">
        {owner === 'account' ? API_TOKEN_MESSAGES.none : API_TOKEN_MESSAGES.noneForOrganization}
      </p>
    );
  return (
    <ul aria-label={label} className="divide-y divide-slate-200 rounded-lg border border-slate-200">
      {tokens.map((token) => (
        <li key={token.id} className="flex flex-wrap items-start justify-between gap-3 px-4 py-3">
          <div className="min-w-0 space-y-1">
            <p className="font-medium break-words text-slate-900">
              {token.name} <span className="font-mono text-xs text-slate-600">{token.start}…</span>
            </p>
            <p className="text-xs break-words text-slate-700">{token.scopes.join(', ')}</p>
            <p className="text-xs text-slate-600">
              Created {formatDate(token.createdAt)} ·{' '}
              {token.lastUsedAt ? `Last used ${formatDate(token.lastUsedAt)}` : 'Never used'} ·{' '}
              {token.expiresAt ? `Expires ${formatDate(token.expiresAt)}` : 'No expiry'}
            </p>
          </div>
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Revoke token ${token.name}`}
            disabled={revoke.isPending}
            onClick={() =>
              revoke.mutate(token.id, {
                onSuccess: () => toast.success(API_TOKEN_MESSAGES.revoked, { duration: TOAST.save }),
                onError: (error) => toast.error(errorMessage(error, API_TOKEN_MESSAGES.revokeFailed)),
              })
            }
          >
            <Trash2 aria-hidden="true" />
            Revoke
          </Button>
        </li>
      ))}
    </ul>
  );
}
