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
import { formatDate } from '@/lib/dates';
import { errorMessage } from '@/lib/forms';
import { say, t } from '@/lib/i18n';
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
          title={t('apiTokens.personalTitle')}
          description={t('apiTokens.personalDescription')}
        />
        {security.data?.organization?.administers && (
          <TokensCard
            owner="organization"
            title={t('apiTokens.organisationTitle')}
            description={t('apiTokens.organisationDescription', {
              organisation: security.data.organization.name,
            })}
          />
        )}
      </div>
    </SettingsFrame>
  );
}

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
        <Spinner label={t('apiTokens.loading')} />
      ) : tokens.isError ? (
        <LoadFailed
          title={say(API_TOKEN_MESSAGES.loadFailed)}
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
      toast.success(t('apiTokens.copied'), { duration: TOAST.copy });
    } catch {
      toast.error(t('apiTokens.copyFailed'));
    }
  };
  return (
    <div className="space-y-4">
      <Notice tone="warning">{say(API_TOKEN_MESSAGES.created)}</Notice>
      <FormField label={t('apiTokens.newToken', { name: created.token.name })}>
        <Input readOnly value={created.secret} className="font-mono" onFocus={(e) => e.target.select()} />
      </FormField>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={() => void copy()}>
          {t('apiTokens.copyToken')}
        </Button>
        <Button onClick={onDone}>{t('apiTokens.copiedToken')}</Button>
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
        Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), say(issue.message)])),
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
    <ActionForm submit={t('apiTokens.create')} busy={t('apiTokens.creating')} onSubmit={submit}>
      <FormField label={t('apiTokens.name')} error={errors.name} hint={t('apiTokens.nameHint')}>
        <Input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} required />
      </FormField>
      <fieldset className="space-y-2" aria-describedby={errors.scopes ? `${owner}-scopes-error` : undefined}>
        <legend className="text-sm font-medium text-slate-900">{t('apiTokens.scopes')}</legend>
        {API_SCOPES.map((scope) => (
          <CheckboxField
            key={scope}
            label={scope}
            technical="label"
            hint={say(API_SCOPE_LABELS[scope])}
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
      <FormField label={t('apiTokens.expires')}>
        <Select
          value={expiry === null ? 'none' : String(expiry)}
          onChange={(e) =>
            setExpiry(e.target.value === 'none' ? null : (Number(e.target.value) as ApiTokenExpiry))
          }
        >
          {API_TOKEN_EXPIRIES.map((days) => (
            <option key={String(days)} value={days === null ? 'none' : String(days)}>
              {expiryLabel(days, t)}
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
        {say(owner === 'account' ? API_TOKEN_MESSAGES.none : API_TOKEN_MESSAGES.noneForOrganization)}
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
              {t('apiTokens.created', { date: formatDate(token.createdAt) })} ·{' '}
              {token.lastUsedAt
                ? t('apiTokens.lastUsed', { date: formatDate(token.lastUsedAt) })
                : t('apiTokens.neverUsed')}{' '}
              ·{' '}
              {token.expiresAt
                ? t('apiTokens.expiresOn', { date: formatDate(token.expiresAt) })
                : t('apiTokens.noExpiry')}
            </p>
          </div>
          <Button
            variant="ghost"
            size="sm"
            aria-label={t('apiTokens.revokeToken', { name: token.name })}
            disabled={revoke.isPending}
            onClick={() =>
              revoke.mutate(token.id, {
                onSuccess: () => toast.success(say(API_TOKEN_MESSAGES.revoked), { duration: TOAST.save }),
                onError: (error) => toast.error(errorMessage(error, say(API_TOKEN_MESSAGES.revokeFailed))),
              })
            }
          >
            <Trash2 aria-hidden="true" />
            {t('apiTokens.revoke')}
          </Button>
        </li>
      ))}
    </ul>
  );
}
