import { identityProofSchema } from '@pulsecheck/shared/account/deletion';
import type { SecurityStatus } from '@pulsecheck/shared/auth/security';
import {
  RECOVERY_CODE_COUNT,
  SECURITY_MESSAGES,
  TRUST_DEVICE_DAYS,
} from '@pulsecheck/shared/auth/security-messages';
import { KeyRound, Trash2 } from 'lucide-react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Button, SubmitButton } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { LoadFailed } from '@/components/ui/state-card';
import { Switch } from '@/components/ui/switch';
import { toast, TOAST } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/dates';
import { errorMessage } from '@/lib/forms';
import { say, t } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useDeletionStatus } from './api';
import { IdentityField, proofOf, type Method, type Proofs } from './identity-proof';
import {
  startEnrolment,
  useAddPasskey,
  useConfirmEnrolment,
  useDisableTwoFactor,
  useRegenerateCodes,
  useRemovePasskey,
  useRequireTwoFactor,
  useSecurity,
} from './security-api';
import { SettingsFrame } from './settings-frame';
import { ScimCard } from './scim-card';
import { LinkSsoCard, SsoCard } from './sso-card';

/** /admin/account-settings/security: the Security tab (issue 15). */
export function SecurityPage() {
  return (
    <SettingsFrame section="security">
      <SecurityContent />
    </SettingsFrame>
  );
}

/**
 * The person's two-factor sign-in and passkeys; for organisation admins, the organisation's two-factor rule and
 * its single sign-on. Also the whole screen of someone whose organisation requires two-factor before anything.
 */
export function SecurityContent() {
  const security = useSecurity();
  const session = useSession();
  if (security.isPending) return <Spinner label={t('accountSecurity.loading')} className="py-12" />;
  if (security.isError) {
    return (
      <LoadFailed
        title={t('accountSecurity.loadFailed')}
        message={errorMessage(security.error, '')}
        onRetry={() => void security.refetch()}
      />
    );
  }
  const status = security.data;
  return (
    <div className="space-y-6">
      {session.data?.mustEnrolTwoFactor && (
        <Notice tone="warning">{say(SECURITY_MESSAGES.enrolmentRequired)}</Notice>
      )}
      <TwoFactorCard status={status} />
      <PasskeysCard status={status} />
      {status.organization?.administers && (
        <>
          <OrganizationTwoFactorCard status={status} />
          <SsoCard />
          <ScimCard />
        </>
      )}
      <LinkSsoCard status={status} />
    </div>
  );
}

/** The text of a failed call, for a form's notice. */
const failureOf = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.fields
    ? (Object.values(error.fields)[0] ?? error.message)
    : errorMessage(error, fallback);

export function PasswordField({
  value,
  onChange,
  label = t('accountSecurity.currentPassword'),
}: {
  value: string;
  onChange: (v: string) => void;
  label?: string;
}) {
  return (
    <FormField label={label}>
      <Input
        type="password"
        autoComplete="current-password"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required
      />
    </FormField>
  );
}

export function CodeField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <FormField label={t('accountSecurity.authenticatorCode')} hint={t('accountSecurity.sixDigits')}>
      <Input
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={6}
        value={value}
        onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))}
        required
      />
    </FormField>
  );
}

/** A small form with its own pending state and failure notice. */
export function ActionForm({
  onSubmit,
  submit,
  busy,
  children,
  onCancel,
}: {
  onSubmit: () => Promise<void>;
  submit: string;
  busy: string;
  children: ReactNode;
  onCancel?: () => void;
}) {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const handle = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setFailure(null);
    try {
      await onSubmit();
    } catch (error) {
      setFailure(failureOf(error, t('accountSecurity.didNotWork')));
    } finally {
      setPending(false);
    }
  };
  return (
    <form onSubmit={(event) => void handle(event)} noValidate className="max-w-md space-y-4">
      {failure && <Notice tone="error">{failure}</Notice>}
      {children}
      <div className="flex flex-wrap gap-3">
        <SubmitButton pending={pending} busy={busy}>
          {submit}
        </SubmitButton>
        {onCancel && (
          <Button variant="ghost" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        )}
      </div>
    </form>
  );
}

/** The recovery codes, shown once: copy or download them. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `${t('accountSecurity.recoveryCodesFileTitle')}\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(t('accountSecurity.recoveryCodesCopied'), { duration: TOAST.copy });
    } catch {
      toast.error(t('accountSecurity.recoveryCodesCopyFailed'));
    }
  };
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'pulsecheck-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <div className="space-y-4">
      <Notice tone="warning">{t('accountSecurity.saveRecoveryCodes', { count: codes.length })}</Notice>
      <ol
        aria-label={t('accountSecurity.recoveryCodes')}
        className="grid max-w-md grid-cols-2 gap-2 font-mono text-sm"
      >
        {codes.map((code) => (
          <li key={code} className="rounded border border-slate-200 bg-slate-50 px-2 py-1">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={() => void copy()}>
          {t('accountSecurity.copyCodes')}
        </Button>
        <Button variant="secondary" onClick={download}>
          {t('accountSecurity.downloadCodes')}
        </Button>
        <Button onClick={onDone}>{t('accountSecurity.savedCodes')}</Button>
      </div>
    </div>
  );
}

type TwoFactorStep =
  | { step: 'idle' }
  | { step: 'password' }
  | { step: 'scan'; totpUri: string; key: string }
  | { step: 'codes'; codes: string[] }
  | { step: 'disable' }
  | { step: 'regenerate' };

function TwoFactorCard({ status }: { status: SecurityStatus }) {
  const [state, setState] = useState<TwoFactorStep>({ step: 'idle' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const confirm = useConfirmEnrolment();
  const disable = useDisableTwoFactor();
  const regenerate = useRegenerateCodes();
  const go = (next: TwoFactorStep) => {
    setPassword('');
    setCode('');
    setState(next);
  };
  let body: ReactNode;
  if (state.step === 'codes')
    body = <RecoveryCodes codes={state.codes} onDone={() => go({ step: 'idle' })} />;
  else if (state.step === 'password')
    body = (
      <ActionForm
        submit={t('common.continue')}
        busy={t('accountSecurity.checking')}
        onCancel={() => go({ step: 'idle' })}
        onSubmit={async () => go({ step: 'scan', ...(await startEnrolment(password)) })}
      >
        <PasswordField value={password} onChange={setPassword} />
      </ActionForm>
    );
  else if (state.step === 'scan')
    body = (
      <div className="space-y-4">
        <p className="text-sm text-slate-700">{t('accountSecurity.scanQrCode')}</p>
        <QrCode uri={state.totpUri} />
        <p className="text-sm">
          {t('accountSecurity.key')}{' '}
          <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono break-all" data-testid="totp-key">
            {state.key}
          </code>
        </p>
        <ActionForm
          submit={t('accountSecurity.turnOn')}
          busy={t('accountSecurity.checking')}
          onCancel={() => go({ step: 'idle' })}
          onSubmit={async () => go({ step: 'codes', codes: (await confirm.mutateAsync(code)).recoveryCodes })}
        >
          <CodeField value={code} onChange={setCode} />
        </ActionForm>
      </div>
    );
  else if (state.step === 'disable')
    body = (
      <ActionForm
        submit={t('accountSecurity.turnOffTwoFactor')}
        busy={t('accountSecurity.turningOff')}
        onCancel={() => go({ step: 'idle' })}
        onSubmit={async () => {
          await disable.mutateAsync({ password, code });
          toast.success(t('accountSecurity.twoFactorOff'), { duration: TOAST.save });
          go({ step: 'idle' });
        }}
      >
        <PasswordField value={password} onChange={setPassword} />
        <CodeField value={code} onChange={setCode} />
      </ActionForm>
    );
  else if (state.step === 'regenerate')
    body = (
      <ActionForm
        submit={t('accountSecurity.makeNewCodes')}
        busy={t('accountSecurity.makingCodes')}
        onCancel={() => go({ step: 'idle' })}
        onSubmit={async () =>
          go({ step: 'codes', codes: (await regenerate.mutateAsync(password)).recoveryCodes })
        }
      >
        <p className="text-sm text-slate-700">{t('accountSecurity.oldCodesStop')}</p>
        <PasswordField value={password} onChange={setPassword} />
      </ActionForm>
    );
  else if (status.twoFactorEnabled)
    body = (
      <div className="space-y-3">
        <Notice tone="success">{t('accountSecurity.twoFactorOn')}</Notice>
        <p className="text-sm text-slate-700">
          {t('accountSecurity.codesLeft', { left: status.recoveryCodesLeft, total: RECOVERY_CODE_COUNT })}
        </p>
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" onClick={() => go({ step: 'regenerate' })}>
            {t('accountSecurity.newCodes')}
          </Button>
          <Button variant="secondary" onClick={() => go({ step: 'disable' })}>
            {t('accountSecurity.turnOff')}
          </Button>
        </div>
      </div>
    );
  else if (!status.hasPassword)
    body = <p className="text-sm text-slate-700">{t('accountSecurity.signInThroughProvider')}</p>;
  else
    body = (
      <Button onClick={() => go({ step: 'password' })}>
        <KeyRound aria-hidden="true" />
        {t('accountSecurity.setUpApp')}
      </Button>
    );
  return (
    <SectionCard
      title={t('accountSecurity.twoFactorTitle')}
      description={t('accountSecurity.twoFactorDescription', {
        codes: RECOVERY_CODE_COUNT,
        days: TRUST_DEVICE_DAYS,
      })}
    >
      {body}
    </SectionCard>
  );
}

function QrCode({ uri }: { uri: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode').then(async ({ toDataURL }) => {
      const url = await toDataURL(uri, { margin: 1, width: 200 });
      if (live) setSrc(url);
    });
    return () => {
      live = false;
    };
  }, [uri]);
  return src ? (
    <img src={src} alt={t('accountSecurity.qrCodeAlt')} width={200} height={200} />
  ) : (
    <Spinner label={t('accountSecurity.drawingQrCode')} />
  );
}

function PasskeysCard({ status }: { status: SecurityStatus }) {
  const remove = useRemovePasskey();
  return (
    <SectionCard
      title={t('accountSecurity.passkeysTitle')}
      description={t('accountSecurity.passkeysDescription')}
      contentClassName="space-y-4"
    >
      {status.passkeys.length === 0 ? (
        <p className="text-sm text-slate-700">{t('accountSecurity.noPasskeys')}</p>
      ) : (
        <ul
          aria-label={t('accountSecurity.yourPasskeys')}
          className="divide-y divide-slate-200 rounded-lg border border-slate-200"
        >
          {status.passkeys.map((passkey) => (
            <li key={passkey.id} className="flex items-center justify-between gap-3 px-4 py-2">
              <div>
                <p className="font-medium text-slate-900">{passkey.name}</p>
                {passkey.createdAt && (
                  <p className="text-xs text-slate-600">
                    {t('accountSecurity.passkeyAddedOn', { date: formatDate(passkey.createdAt) })}
                  </p>
                )}
              </div>
              <Button
                variant="ghost"
                size="sm"
                aria-label={t('accountSecurity.removePasskey', { name: passkey.name })}
                disabled={remove.isPending}
                onClick={() =>
                  remove.mutate(passkey.id, {
                    onError: (error) =>
                      toast.error(errorMessage(error, t('accountSecurity.passkeyRemoveFailed'))),
                  })
                }
              >
                <Trash2 aria-hidden="true" />
                {t('common.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <AddPasskey />
    </SectionCard>
  );
}

/** Adding a passkey asks for the proof deleting the account asks (the server grants the options only for it). */
function AddPasskey() {
  const proofs = useDeletionStatus();
  if (proofs.isPending) return <Spinner label={t('accountSecurity.loadingProofs')} />;
  if (proofs.isError)
    return (
      <LoadFailed title={t('accountSecurity.passkeysUnavailable')} onRetry={() => void proofs.refetch()} />
    );
  return <AddPasskeyForm proofs={proofs.data} />;
}

function AddPasskeyForm({ proofs }: { proofs: Proofs }) {
  const [name, setName] = useState('');
  const [method, setMethod] = useState<Method>(proofs.confirmWith);
  const [value, setValue] = useState('');
  const add = useAddPasskey();
  return (
    <ActionForm
      submit={t('accountSecurity.addPasskey')}
      busy={t('accountSecurity.waitingForDevice')}
      onSubmit={async () => {
        const confirm = identityProofSchema.safeParse(proofOf(method, value));
        if (!confirm.success) throw new Error(say(confirm.error.issues[0]?.message ?? ''));
        try {
          await add.mutateAsync({
            name: name.trim() || t('accountSecurity.defaultPasskeyName'),
            confirm: confirm.data,
          });
        } catch (error) {
          if (error instanceof Error && error.name === 'NotAllowedError')
            throw new Error(t('accountSecurity.passkeyNotCreated'), {
              cause: error,
            });
          throw error;
        } finally {
          setValue('');
        }
        setName('');
        toast.success(t('accountSecurity.passkeyAddedToast'), { duration: TOAST.save });
      }}
    >
      <FormField label={t('accountSecurity.passkeyName')} hint={t('accountSecurity.passkeyNameHint')}>
        <Input value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
      </FormField>
      <IdentityField
        proofs={proofs}
        method={method}
        onMethod={(next) => {
          setMethod(next);
          setValue('');
        }}
        value={value}
        onValue={setValue}
        error=""
      />
    </ActionForm>
  );
}

function OrganizationTwoFactorCard({ status }: { status: SecurityStatus }) {
  const require = useRequireTwoFactor();
  const organization = status.organization!;
  return (
    <SectionCard
      title={t('accountSecurity.organisationTitle')}
      description={t('accountSecurity.organisationDescription', { organisation: organization.name })}
      descriptionId="organisation-two-factor-description"
    >
      <div className="flex items-center gap-3">
        <Switch
          id="require-two-factor"
          checked={organization.requireTwoFactor}
          disabled={require.isPending}
          aria-describedby="organisation-two-factor-description"
          onCheckedChange={(checked) =>
            require.mutate(checked, {
              onError: (error) => toast.error(errorMessage(error, t('accountSecurity.settingNotSaved'))),
            })
          }
        />
        <Label htmlFor="require-two-factor" className="font-normal">
          {t('accountSecurity.requireTwoFactor')}
        </Label>
      </div>
      <p className="mt-2 text-xs text-slate-600">{t('accountSecurity.requireTwoFactorHint')}</p>
    </SectionCard>
  );
}
