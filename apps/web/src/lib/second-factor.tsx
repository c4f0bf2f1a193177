import { SECURITY_MESSAGES, TRUST_DEVICE_DAYS } from '@pulsecheck/shared/auth/security-messages';
import type { CurrentUser } from '@pulsecheck/shared/auth/schemas';
import { useId, useState, type FormEvent } from 'react';
import { Button, SubmitButton } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { apiPost } from './api-client';
import { errorMessage } from './forms';
import { say, t } from './i18n';

/**
 * The second step of a sign-in with two-factor on, after `logIn` answered `twoFactorRequired`: a code from the
 * authenticator app or a recovery code, and optionally 'Trust this device'. The login page shows it on a screen of
 * its own (features/auth/sign-in-steps.tsx), the invitation page inside its card. `onSignedIn` gets the user
 * (the caller stores them with `replaceSession`); `onRestart` goes back to the password.
 */
export function SecondFactorForm({
  onSignedIn,
  onRestart,
}: {
  onSignedIn: (user: CurrentUser) => void | Promise<void>;
  onRestart: () => void;
}) {
  const trustId = useId();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [trustDevice, setTrustDevice] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!code.trim()) {
      setFailure(recovery ? SECURITY_MESSAGES.recoveryCodeRequired : SECURITY_MESSAGES.codeRequired);
      return;
    }
    setPending(true);
    let user: CurrentUser;
    try {
      const path = recovery ? '/login/recovery-code' : '/login/two-factor';
      ({ user } = await apiPost<{ user: CurrentUser }>(path, { code: code.trim(), trustDevice }));
    } catch (error) {
      setFailure(errorMessage(error, t('auth.signInFailed')));
      setPending(false);
      return;
    }
    await onSignedIn(user);
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
      <p className="text-sm text-slate-600">
        {recovery ? t('auth.enterRecoveryCode') : t('auth.enterAuthenticatorCode')}
      </p>
      {failure && <Notice tone="error">{say(failure)}</Notice>}
      <FormField label={recovery ? t('auth.recoveryCode') : t('auth.authenticationCode')}>
        <Input
          autoFocus
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          maxLength={recovery ? 64 : 6}
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </FormField>
      <div className="flex items-center gap-2">
        <Checkbox
          id={trustId}
          checked={trustDevice}
          onCheckedChange={(checked) => setTrustDevice(checked === true)}
        />
        <Label htmlFor={trustId} className="font-normal">
          {t('auth.trustDevice', { days: TRUST_DEVICE_DAYS })}
        </Label>
      </div>
      <SubmitButton className="w-full" size="lg" pending={pending} busy={t('auth.checking')}>
        {t('auth.verify')}
      </SubmitButton>
      <div className="flex flex-wrap justify-between gap-2">
        <Button
          variant="link"
          className="h-auto px-0"
          onClick={() => {
            setRecovery(!recovery);
            setCode('');
            setFailure(null);
          }}
        >
          {recovery ? t('auth.useAppCode') : t('auth.useRecoveryCode')}
        </Button>
        <Button variant="link" className="h-auto px-0" onClick={onRestart}>
          {t('auth.startAgain')}
        </Button>
      </div>
    </form>
  );
}
