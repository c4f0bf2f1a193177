import type { SecurityStatus, SsoSettings } from '@pulsecheck/shared/auth/security';
import { SECURITY_MESSAGES, SSO_ERRORS, type SsoErrorCode } from '@pulsecheck/shared/auth/security-messages';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { LoadFailed } from '@/components/ui/state-card';
import { Switch } from '@/components/ui/switch';
import { toast, TOAST } from '@/components/ui/toaster';
import { formatDate, formatDateTime } from '@/lib/dates';
import { errorMessage } from '@/lib/forms';
import { say, t, tRich } from '@/lib/i18n';
import {
  linkSso,
  testSsoConnection,
  useSamlSettings,
  useSaveSaml,
  useSaveSso,
  useSsoLinkStatus,
  useSsoSettings,
  useSwitchSso,
  useVerifySsoDomain,
} from './security-api';
import { ActionForm, CodeField, PasswordField } from './security-page';

/** The Security tab's single sign-on: the organisation's settings (admins) and 'Link single sign-on' (everyone). */

const errorText = (code: string | null) =>
  code ? say(SSO_ERRORS[code as SsoErrorCode] ?? SSO_ERRORS.failed) : '';

function SsoOutcome() {
  const [params] = useSearchParams();
  const error = params.get('sso_error');
  if (params.get('sso') === 'tested') return <Notice tone="success">{t('accountSso.testPassed')}</Notice>;
  if (error) return <Notice tone="error">{t('accountSso.testFailed', { reason: errorText(error) })}</Notice>;
  return null;
}

/** A domain's verification status in words (a function: `t` is not ready at import). */
const statusText = (status: SsoSettings['verification'][number]['status']) =>
  t('accountSso.domainStatus', { status });

/** Each domain's proof of ownership: the TXT record to publish and 'Verify domain'. */
function DomainVerification({ sso }: { sso: SsoSettings }) {
  const verify = useVerifySsoDomain();
  const [failure, setFailure] = useState<{ domain: string; message: string } | null>(null);
  if (sso.verification.length === 0) return null;
  return (
    <div className="space-y-3 border-t border-slate-200 pt-4">
      <h3 className="text-sm font-semibold text-slate-900">{t('accountSso.domainVerification')}</h3>
      <p className="text-sm text-slate-700">{t('accountSso.domainVerificationHelp')}</p>
      <ul className="space-y-3" aria-label={t('accountSso.domainsToVerify')}>
        {sso.verification.map((entry) => (
          <li key={entry.domain} className="space-y-2 rounded-md border border-slate-200 p-3">
            <p id={`sso-domain-${entry.domain}`} className="text-sm text-slate-900">
              {tRich(entry.checkedAt ? 'accountSso.domainLineChecked' : 'accountSso.domainLine', {
                b: (chunks) => <span className="font-medium">{chunks}</span>,
                domain: entry.domain,
                status: statusText(entry.status),
                checkedAt: entry.checkedAt ? formatDateTime(entry.checkedAt) : '',
              })}
            </p>
            <p className="text-sm text-slate-700">
              {t('accountSso.txtRecordOn', { domain: entry.domain })}{' '}
              <code
                className="rounded bg-slate-100 px-1.5 py-0.5 font-mono break-all"
                data-testid="sso-record"
              >
                {entry.record}
              </code>
            </p>
            {failure?.domain === entry.domain && <Notice tone="error">{failure.message}</Notice>}
            {entry.status !== 'verified' && (
              <Button
                variant="secondary"
                aria-describedby={`sso-domain-${entry.domain}`}
                disabled={verify.isPending}
                onClick={() => {
                  setFailure(null);
                  verify.mutate(entry.domain, {
                    onSuccess: () =>
                      toast.success(t('accountSso.domainVerified', { domain: entry.domain }), {
                        duration: TOAST.save,
                      }),
                    onError: (error) =>
                      setFailure({
                        domain: entry.domain,
                        message: errorMessage(error, t('accountSso.didNotWork')),
                      }),
                  });
                }}
              >
                {t('accountSso.verifyDomain')}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

type Protocol = NonNullable<SsoSettings['protocol']>;

/** OpenID Connect: issuer (discovered), client ID and secret, domains. */
function OidcForm({ sso }: { sso: SsoSettings }) {
  const save = useSaveSso();
  const [form, setForm] = useState<{
    issuer: string;
    clientId: string;
    clientSecret: string;
    domains: string;
  } | null>(null);
  const values = form ?? {
    issuer: sso.issuer ?? '',
    clientId: sso.clientId ?? '',
    clientSecret: '',
    domains: sso.domains.join(', '),
  };
  const set = (key: keyof typeof values) => (event: { target: { value: string } }) =>
    setForm({ ...values, [key]: event.target.value });
  return (
    <ActionForm
      submit={t('common.save')}
      busy={t('accountSso.checkingProvider')}
      onSubmit={async () => {
        await save.mutateAsync(values);
        setForm(null);
        toast.success(t('accountSso.saved'), { duration: TOAST.save });
      }}
    >
      <FormField label={t('accountSso.issuerUrl')} hint={t('accountSso.issuerUrlHint')}>
        <Input
          type="url"
          value={values.issuer}
          onChange={set('issuer')}
          placeholder="https://login.example.com"
        />
      </FormField>
      <FormField label={t('accountSso.clientId')}>
        <Input value={values.clientId} onChange={set('clientId')} autoComplete="off" />
      </FormField>
      <FormField
        label={t('accountSso.clientSecret')}
        hint={sso.hasClientSecret ? t('accountSso.clientSecretSaved') : t('accountSso.clientSecretHint')}
      >
        <Input
          type="password"
          value={values.clientSecret}
          onChange={set('clientSecret')}
          autoComplete="off"
        />
      </FormField>
      <FormField label={t('accountSso.emailDomains')} hint={t('accountSso.emailDomainsHint')}>
        <Input value={values.domains} onChange={set('domains')} />
      </FormField>
      <p className="text-sm text-slate-700">
        {t('accountSso.redirectUri')}{' '}
        <code translate="no" className="rounded bg-slate-100 px-1.5 py-0.5 font-mono break-all">
          {sso.redirectUri}
        </code>
      </p>
    </ActionForm>
  );
}

function Registration({ label, value }: { label: string; value: string }) {
  return (
    <div className="space-y-1">
      <dt className="text-sm font-medium text-slate-900">{label}</dt>
      <dd>
        <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-sm break-all">{value}</code>
      </dd>
    </div>
  );
}

/**
 * SAML 2.0: the identity provider's metadata (URL or XML), domains, and whether sign-in started at the identity
 * provider is accepted (off by default, its risk said beside it); what to register there.
 */
function SamlForm({ sso }: { sso: SsoSettings }) {
  const settings = useSamlSettings(true);
  const save = useSaveSaml();
  const [form, setForm] = useState<{
    metadataUrl: string;
    metadataXml: string;
    domains: string;
    allowIdpInitiated: boolean;
  } | null>(null);
  if (settings.isPending) return <Spinner label={t('accountSso.loadingSaml')} className="py-6" />;
  if (settings.isError)
    return <LoadFailed title={t('accountSso.samlLoadFailed')} onRetry={() => void settings.refetch()} />;
  const saml = settings.data;
  const values = form ?? {
    metadataUrl: saml.metadataUrl ?? '',
    metadataXml: '',
    domains: sso.domains.join(', '),
    allowIdpInitiated: saml.allowIdpInitiated,
  };
  const set = (key: 'metadataUrl' | 'metadataXml' | 'domains') => (event: { target: { value: string } }) =>
    setForm({ ...values, [key]: event.target.value });
  return (
    <div className="space-y-5">
      <div className="space-y-2">
        <h3 className="text-sm font-semibold text-slate-900">{t('accountSso.registerAtProvider')}</h3>
        <dl className="space-y-2">
          <Registration label={t('accountSso.entityId')} value={saml.spEntityId} />
          <Registration label={t('accountSso.acsUrl')} value={saml.spAcsUrl} />
          <Registration label={t('accountSso.spMetadataUrl')} value={saml.spMetadataUrl} />
        </dl>
        <p className="text-sm text-slate-700">{t('accountSso.samlAttributes')}</p>
      </div>
      {saml.configured && (
        <div className="space-y-1 text-sm text-slate-700">
          <p>
            {t('accountSso.identityProvider')}{' '}
            <span className="font-medium text-slate-900 break-all">{saml.idpEntityId}</span>
          </p>
          <ul aria-label={t('accountSso.signingCertificates')} className="space-y-1">
            {saml.certificates.map((cert) => (
              <li key={cert.fingerprint} className="break-all">
                {t('accountSso.certificate', {
                  fingerprint: cert.fingerprint,
                  date: formatDate(cert.expiresAt),
                })}
              </li>
            ))}
          </ul>
        </div>
      )}
      <ActionForm
        submit={t('common.save')}
        busy={t('accountSso.readingMetadata')}
        onSubmit={async () => {
          await save.mutateAsync(values.metadataXml ? { ...values, metadataUrl: '' } : values);
          setForm(null);
          toast.success(t('accountSso.saved'), { duration: TOAST.save });
        }}
      >
        <FormField label={t('accountSso.metadataUrl')} hint={t('accountSso.metadataUrlHint')}>
          <Input
            type="url"
            value={values.metadataUrl}
            onChange={set('metadataUrl')}
            placeholder="https://idp.example.com/metadata"
          />
        </FormField>
        <FormField
          label={t('accountSso.metadataXml')}
          hint={saml.configured ? t('accountSso.metadataXmlKeep') : t('accountSso.metadataXmlHint')}
        >
          <Textarea value={values.metadataXml} onChange={set('metadataXml')} spellCheck={false} rows={4} />
        </FormField>
        <FormField label={t('accountSso.emailDomains')} hint={t('accountSso.emailDomainsHint')}>
          <Input value={values.domains} onChange={set('domains')} />
        </FormField>
        <div className="space-y-1">
          <div className="flex items-center gap-3">
            <Switch
              id="saml-idp-initiated"
              checked={values.allowIdpInitiated}
              aria-describedby="saml-idp-initiated-risk"
              onCheckedChange={(checked) => setForm({ ...values, allowIdpInitiated: checked })}
            />
            <Label htmlFor="saml-idp-initiated" className="font-normal">
              {t('accountSso.allowIdpInitiated')}
            </Label>
          </div>
          <p id="saml-idp-initiated-risk" className="text-xs text-slate-600">
            {say(SECURITY_MESSAGES.samlIdpInitiatedRisk)}
          </p>
        </div>
      </ActionForm>
    </div>
  );
}

export function SsoCard() {
  const settings = useSsoSettings(true);
  const switchSso = useSwitchSso();
  const [protocol, setProtocol] = useState<Protocol | null>(null);
  if (settings.isPending) return <Spinner label={t('accountSso.loading')} className="py-6" />;
  if (settings.isError)
    return <LoadFailed title={t('accountSso.loadFailed')} onRetry={() => void settings.refetch()} />;
  const sso = settings.data;
  const chosen: Protocol = protocol ?? sso.protocol ?? 'oidc';
  const verified = sso.verification.some((entry) => entry.status === 'verified');
  const flip = (change: { enabled: boolean; required: boolean }) =>
    switchSso.mutate(change, {
      onError: (error) => toast.error(errorMessage(error, t('accountSso.settingNotSaved'))),
    });
  return (
    <SectionCard
      title={t('accountSso.title')}
      description={t('accountSso.description')}
      contentClassName="space-y-5"
    >
      <SsoOutcome />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-900">{t('accountSso.protocol')}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {(
            [
              ['oidc', 'OpenID Connect'],
              ['saml', 'SAML 2.0'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2 text-sm text-slate-900">
              <input
                type="radio"
                name="sso-protocol"
                value={value}
                checked={chosen === value}
                onChange={() => setProtocol(value)}
                className="size-4 accent-brand-600"
              />
              <span translate="no">{label}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {sso.protocol && chosen !== sso.protocol && (
        <Notice tone="warning">
          {t('accountSso.protocolChange', {
            protocol: sso.protocol === 'saml' ? 'SAML 2.0' : 'OpenID Connect',
          })}
        </Notice>
      )}
      {chosen === 'oidc' ? <OidcForm sso={sso} /> : <SamlForm sso={sso} />}
      <DomainVerification sso={sso} />
      {sso.configured && (
        <div className="space-y-4 border-t border-slate-200 pt-4">
          <div className="flex flex-wrap items-center gap-3">
            <Button
              variant="secondary"
              onClick={() =>
                void testSsoConnection().catch((e: unknown) =>
                  toast.error(errorMessage(e, t('accountSso.testNotStarted'))),
                )
              }
            >
              {t('accountSso.testConnection')}
            </Button>
            <p className="text-sm text-slate-700">
              {sso.testedAt
                ? t('accountSso.lastPassed', { date: formatDateTime(sso.testedAt) })
                : t('accountSso.testFirst')}
            </p>
          </div>
          {!verified && <p className="text-sm text-slate-700">{t('accountSso.verifyFirst')}</p>}
          <div className="flex items-center gap-3">
            <Switch
              id="sso-enabled"
              checked={sso.enabled}
              disabled={!sso.testedAt || !verified || switchSso.isPending}
              onCheckedChange={(checked) => flip({ enabled: checked, required: checked && sso.required })}
            />
            <Label htmlFor="sso-enabled" className="font-normal">
              {t('accountSso.offerSso')}
            </Label>
          </div>
          <div className="flex items-center gap-3">
            <Switch
              id="sso-required"
              checked={sso.required}
              disabled={!sso.enabled || switchSso.isPending}
              onCheckedChange={(checked) => flip({ enabled: sso.enabled, required: checked })}
            />
            <Label htmlFor="sso-required" className="font-normal">
              {t('accountSso.requireSso')}
            </Label>
          </div>
        </div>
      )}
    </SectionCard>
  );
}

/**
 * 'Link single sign-on': a member whose organisation's verified domain covers their address lets its identity
 * provider sign them in from now on, after their password or an authenticator code.
 */
export function LinkSsoCard({ status }: { status: SecurityStatus }) {
  const link = useSsoLinkStatus();
  const [params] = useSearchParams();
  const [open, setOpen] = useState(false);
  const [withCode, setWithCode] = useState(!status.hasPassword && status.twoFactorEnabled);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  if (!link.data?.available) return null;
  const error = params.get('sso_link_error');
  return (
    <SectionCard
      title={t('accountSso.linkTitle')}
      description={t('accountSso.linkDescription')}
      contentClassName="space-y-4"
    >
      {params.get('sso') === 'linked' && link.data.linked && (
        <Notice tone="success">{t('accountSso.linkedNow')}</Notice>
      )}
      {error && <Notice tone="error">{t('accountSso.linkFailed', { reason: errorText(error) })}</Notice>}
      {link.data.linked ? (
        <p className="text-sm text-slate-700">{t('accountSso.linked')}</p>
      ) : open ? (
        <ActionForm
          submit={t('accountSso.continueToProvider')}
          busy={t('accountSso.checking')}
          onCancel={() => setOpen(false)}
          onSubmit={() =>
            linkSso(withCode ? { method: 'authenticator', code } : { method: 'password', password })
          }
        >
          {withCode ? (
            <CodeField value={code} onChange={setCode} />
          ) : (
            <PasswordField value={password} onChange={setPassword} />
          )}
          {status.twoFactorEnabled && status.hasPassword && (
            <Button variant="link" className="px-0" onClick={() => setWithCode(!withCode)}>
              {withCode ? t('accountSso.usePassword') : t('accountSso.useCode')}
            </Button>
          )}
        </ActionForm>
      ) : (
        <Button variant="secondary" onClick={() => setOpen(true)}>
          {t('accountSso.link')}
        </Button>
      )}
    </SectionCard>
  );
}
