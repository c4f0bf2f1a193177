import type { SecurityStatus, SsoSettings } from '@pulsecheck/shared/auth/security';
import { SSO_ERRORS, type SsoErrorCode } from '@pulsecheck/shared/auth/security-messages';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
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

export function SsoCard() {
  const settings = useSsoSettings(true);
  const save = useSaveSso();
  const switchSso = useSwitchSso();
  const [form, setForm] = useState<{
    issuer: string;
    clientId: string;
    clientSecret: string;
    domains: string;
  } | null>(null);
  if (settings.isPending) return <Spinner label="Loading single sign-on..." className="py-6" />;
  if (settings.isError)
    return (
      <LoadFailed
        title="Single sign-on settings could not be loaded"
        onRetry={() => void settings.refetch()}
      />
    );
  const sso = settings.data;
  const verified = sso.verification.some((entry) => entry.status === 'verified');
  const values = form ?? {
    issuer: sso.issuer ?? '',
    clientId: sso.clientId ?? '',
    clientSecret: '',
    domains: sso.domains.join(', '),
  };
  const set = (key: keyof typeof values) => (event: { target: { value: string } }) =>
    setForm({ ...values, [key]: event.target.value });
  const flip = (change: { enabled: boolean; required: boolean }) =>
    switchSso.mutate(change, {
      onError: (error) => toast.error(errorMessage(error, 'The setting could not be saved.')),
    });
  return (
    <SectionCard
      title="Single sign-on (OpenID Connect)"
      description="People with an address at your verified domains sign in through your identity provider and join the organisation on their first sign-in."
      contentClassName="space-y-5"
    >
      <SsoOutcome />
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
