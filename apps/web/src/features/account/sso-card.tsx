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
import { errorMessage } from '@/lib/forms';
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
  code ? (SSO_ERRORS[code as SsoErrorCode] ?? SSO_ERRORS.failed) : '';

function SsoOutcome() {
  const [params] = useSearchParams();
  const error = params.get('sso_error');
  if (params.get('sso') === 'tested')
    return <Notice tone="success">Test connection passed: you can now switch single sign-on on.</Notice>;
  if (error) return <Notice tone="error">Test connection failed. {errorText(error)}</Notice>;
  return null;
}

const STATUS_TEXT: Record<SsoSettings['verification'][number]['status'], string> = {
  pending: 'Not verified yet',
  verified: 'Verified',
  failed: 'Record not found',
};

/** Each domain's proof of ownership: the TXT record to publish and 'Verify domain'. */
function DomainVerification({ sso }: { sso: SsoSettings }) {
  const verify = useVerifySsoDomain();
  const [failure, setFailure] = useState<{ domain: string; message: string } | null>(null);
  if (sso.verification.length === 0) return null;
  return (
    <div className="space-y-3 border-t border-slate-200 pt-4">
      <h3 className="text-sm font-semibold text-slate-900">Domain verification</h3>
      <p className="text-sm text-slate-700">
        Single sign-on works for a domain only once you prove your organisation controls it: add this TXT
        record to the domain&rsquo;s DNS, then choose &lsquo;Verify domain&rsquo;. We check it again every
        day.
      </p>
      <ul className="space-y-3" aria-label="Domains to verify">
        {sso.verification.map((entry) => (
          <li key={entry.domain} className="space-y-2 rounded-md border border-slate-200 p-3">
            <p id={`sso-domain-${entry.domain}`} className="text-sm text-slate-900">
              <span className="font-medium">{entry.domain}</span>: {STATUS_TEXT[entry.status]}
              {entry.checkedAt && ` (checked ${new Date(entry.checkedAt).toLocaleString()})`}
            </p>
            <p className="text-sm text-slate-700">
              TXT record on {entry.domain}:{' '}
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
                    onSuccess: () => toast.success(`${entry.domain} verified`, { duration: TOAST.save }),
                    onError: (error) =>
                      setFailure({
                        domain: entry.domain,
                        message: errorMessage(error, 'That did not work.'),
                      }),
                  });
                }}
              >
                Verify domain
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
      submit="Save"
      busy="Checking the provider..."
      onSubmit={async () => {
        await save.mutateAsync(values);
        setForm(null);
        toast.success('Single sign-on saved', { duration: TOAST.save });
      }}
    >
      <FormField label="Issuer URL" hint="We read its /.well-known/openid-configuration.">
        <Input
          type="url"
          value={values.issuer}
          onChange={set('issuer')}
          placeholder="https://login.example.com"
        />
      </FormField>
      <FormField label="Client ID">
        <Input value={values.clientId} onChange={set('clientId')} autoComplete="off" />
      </FormField>
      <FormField
        label="Client secret"
        hint={sso.hasClientSecret ? 'Saved (encrypted). Leave empty to keep it.' : 'Stored encrypted.'}
      >
        <Input
          type="password"
          value={values.clientSecret}
          onChange={set('clientSecret')}
          autoComplete="off"
        />
      </FormField>
      <FormField label="E-mail domains" hint="Separated by commas, e.g. example.com">
        <Input value={values.domains} onChange={set('domains')} />
      </FormField>
      <p className="text-sm text-slate-700">
        Redirect URI to register at your provider:{' '}
        <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono break-all">{sso.redirectUri}</code>
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
  if (settings.isPending) return <Spinner label="Loading SAML settings..." className="py-6" />;
  if (settings.isError)
    return <LoadFailed title="SAML settings could not be loaded" onRetry={() => void settings.refetch()} />;
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
        <h3 className="text-sm font-semibold text-slate-900">
          Register Pulsecheck at your identity provider
        </h3>
        <dl className="space-y-2">
          <Registration label="Entity ID (audience)" value={saml.spEntityId} />
          <Registration label="Assertion consumer service URL (HTTP-POST)" value={saml.spAcsUrl} />
          <Registration label="Service provider metadata URL" value={saml.spMetadataUrl} />
        </dl>
        <p className="text-sm text-slate-700">
          Send the e-mail address as an attribute named &lsquo;email&rsquo; (or as an e-mail NameID), and sign
          the response or the assertion with RSA-SHA256 or better.
        </p>
      </div>
      {saml.configured && (
        <div className="space-y-1 text-sm text-slate-700">
          <p>
            Identity provider:{' '}
            <span className="font-medium text-slate-900 break-all">{saml.idpEntityId}</span>
          </p>
          <ul aria-label="Signing certificates" className="space-y-1">
            {saml.certificates.map((cert) => (
              <li key={cert.fingerprint} className="break-all">
                Certificate SHA-256 {cert.fingerprint}, valid until{' '}
                {new Date(cert.expiresAt).toLocaleDateString()}
              </li>
            ))}
          </ul>
        </div>
      )}
      <ActionForm
        submit="Save"
        busy="Reading the metadata..."
        onSubmit={async () => {
          await save.mutateAsync(values.metadataXml ? { ...values, metadataUrl: '' } : values);
          setForm(null);
          toast.success('Single sign-on saved', { duration: TOAST.save });
        }}
      >
        <FormField label="Metadata URL" hint="We fetch it now, from public addresses only.">
          <Input
            type="url"
            value={values.metadataUrl}
            onChange={set('metadataUrl')}
            placeholder="https://idp.example.com/metadata"
          />
        </FormField>
        <FormField
          label="Metadata XML"
          hint={
            saml.configured
              ? 'Or paste the XML instead. Leave both empty to keep the metadata saved.'
              : 'Or paste the XML instead of a URL.'
          }
        >
          <Textarea value={values.metadataXml} onChange={set('metadataXml')} spellCheck={false} rows={4} />
        </FormField>
        <FormField label="E-mail domains" hint="Separated by commas, e.g. example.com">
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
              Allow sign-in started at the identity provider
            </Label>
          </div>
          <p id="saml-idp-initiated-risk" className="text-xs text-slate-600">
            {SECURITY_MESSAGES.samlIdpInitiatedRisk}
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
  if (settings.isPending) return <Spinner label="Loading single sign-on..." className="py-6" />;
  if (settings.isError)
    return (
      <LoadFailed
        title="Single sign-on settings could not be loaded"
        onRetry={() => void settings.refetch()}
      />
    );
  const sso = settings.data;
  const chosen: Protocol = protocol ?? sso.protocol ?? 'oidc';
  const verified = sso.verification.some((entry) => entry.status === 'verified');
  const flip = (change: { enabled: boolean; required: boolean }) =>
    switchSso.mutate(change, {
      onError: (error) => toast.error(errorMessage(error, 'The setting could not be saved.')),
    });
  return (
    <SectionCard
      title="Single sign-on"
      description="People with an address at your verified domains sign in through your identity provider and join the organisation on their first sign-in."
      contentClassName="space-y-5"
    >
      <SsoOutcome />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-900">Protocol</legend>
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
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      {sso.protocol && chosen !== sso.protocol && (
        <Notice tone="warning">
          Your organisation signs in with {sso.protocol === 'saml' ? 'SAML 2.0' : 'OpenID Connect'}. Saving
          these settings replaces it, and single sign-on stays off until &lsquo;Test connection&rsquo; passes.
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
                  toast.error(errorMessage(e, 'The test could not start.')),
                )
              }
            >
              Test connection
            </Button>
            <p className="text-sm text-slate-700">
              {sso.testedAt
                ? `Last passed ${new Date(sso.testedAt).toLocaleString()}.`
                : 'Sign in through your provider once before switching single sign-on on.'}
            </p>
          </div>
          {!verified && (
            <p className="text-sm text-slate-700">
              Verify at least one domain before switching single sign-on on.
            </p>
          )}
          <div className="flex items-center gap-3">
            <Switch
              id="sso-enabled"
              checked={sso.enabled}
              disabled={!sso.testedAt || !verified || switchSso.isPending}
              onCheckedChange={(checked) => flip({ enabled: checked, required: checked && sso.required })}
            />
            <Label htmlFor="sso-enabled" className="font-normal">
              Offer &lsquo;Sign in with SSO&rsquo; for these domains
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
              Require SSO for these domains (your organisation&rsquo;s members: no password sign-in, sign-up
              or reset)
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
      title="Single sign-on for your account"
      description="Sign in through your organisation's identity provider instead of your password."
      contentClassName="space-y-4"
    >
      {params.get('sso') === 'linked' && link.data.linked && (
        <Notice tone="success">
          Single sign-on is linked: you can now use &lsquo;Sign in with SSO&rsquo;.
        </Notice>
      )}
      {error && <Notice tone="error">Linking failed. {errorText(error)}</Notice>}
      {link.data.linked ? (
        <p className="text-sm text-slate-700">Single sign-on is linked to your account.</p>
      ) : open ? (
        <ActionForm
          submit="Continue to your identity provider"
          busy="Checking..."
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
              {withCode ? 'Use your password instead' : 'Use a code from your authenticator app instead'}
            </Button>
          )}
        </ActionForm>
      ) : (
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Link single sign-on
        </Button>
      )}
    </SectionCard>
  );
}
