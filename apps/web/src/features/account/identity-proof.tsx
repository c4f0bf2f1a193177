import {
  DELETION_MESSAGES,
  RECENT_SIGN_IN_MINUTES,
  type DeletionStatus,
  type IdentityProof,
} from '@pulsecheck/shared/account/deletion';
import { useId } from 'react';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/forms';
import { say, t } from '@/lib/i18n';

/**
 * The proof asked before something a stolen session must not do (deleting the account or the organisation, handing
 * the organisation over, adding a passkey): the server's rule is `confirmIdentity`; `GET /account/deletion` says
 * which methods this account has.
 */
/** How the person may prove it is them: the status's `confirmWith`, and whether an authenticator code counts. */
export type Proofs = Pick<DeletionStatus, 'confirmWith' | 'authenticatorCode'>;
export type Method = IdentityProof['method'];

export const proofOf = (method: Method, value: string): IdentityProof =>
  method === 'password'
    ? { method, password: value }
    : method === 'authenticator'
      ? { method, code: value.trim() }
      : { method };

/** The field the server (or the shared schema) names for the method's input: `confirm.password` or `confirm.code`. */
const fieldOf = (method: Method) => (method === 'authenticator' ? 'code' : 'password');

/** The message of a refusal, and the proof field's own message when the server names it. */
export function refusal(error: unknown, method: Method) {
  const fields = error instanceof ApiError ? (error.fields ?? {}) : {};
  const field = fieldOf(method);
  return {
    message: errorMessage(error, say(DELETION_MESSAGES.deleteFailed)),
    fieldError: fields[`confirm.${field}`] ?? fields[field] ?? '',
  };
}

/**
 * The proof: the password (or, for an account without one, what a recent sign-in means); with two-factor sign-in
 * on, a choice between that and a code of the authenticator app.
 */
export function IdentityField({
  proofs,
  method,
  onMethod,
  value,
  onValue,
  error,
}: {
  proofs: Proofs;
  method: Method;
  onMethod: (method: Method) => void;
  value: string;
  onValue: (value: string) => void;
  error: string;
}) {
  const name = useId();
  const choices: { method: Method; label: string }[] = [
    {
      method: proofs.confirmWith,
      label:
        proofs.confirmWith === 'password' ? t('accountProof.myPassword') : t('accountProof.recentSignIn'),
    },
    { method: 'authenticator', label: t('accountProof.myAuthenticatorCode') },
  ];
  return (
    <div className="space-y-3">
      {proofs.authenticatorCode && (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-900">{t('accountProof.confirmWith')}</legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {choices.map((choice) => (
              <label key={choice.method} className="flex items-center gap-2 text-sm text-slate-900">
                <input
                  type="radio"
                  name={name}
                  value={choice.method}
                  checked={method === choice.method}
                  onChange={() => onMethod(choice.method)}
                  className="size-4 accent-brand-600"
                />
                {choice.label}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {method === 'authenticator' ? (
        <FormField label={t('accountProof.authenticatorCode')} error={error ? say(error) : undefined}>
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={value}
            onChange={(event) => onValue(event.target.value)}
          />
        </FormField>
      ) : method === 'password' ? (
        <FormField label={t('accountProof.yourPassword')} error={error ? say(error) : undefined}>
          <Input
            type="password"
            autoComplete="current-password"
            value={value}
            onChange={(event) => onValue(event.target.value)}
          />
        </FormField>
      ) : (
        <p className="text-sm text-slate-700">
          {t('accountProof.noPassword', { minutes: RECENT_SIGN_IN_MINUTES })}
        </p>
      )}
    </div>
  );
}
