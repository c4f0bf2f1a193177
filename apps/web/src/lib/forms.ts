import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

/** What `applyServerErrors` needs of a light form (light-form.ts). */
type LightFormTarget = {
  setError: (name: string, error: { message: string }) => void;
  getValues: () => object;
};
import { ApiError } from './api-client';
import { say } from './i18n';

/**
 * The text to show for a failure: the error's own message (the server's, for API errors), else `fallback`; a
 * message that is a catalogue key (the shared rules') is said in the app's language.
 */
export function errorMessage(error: unknown, fallback: string) {
  return say(error instanceof Error && error.message ? error.message : fallback);
}

/**
 * Puts an API error's field errors (`{ error: { fields } }`) on the form's own fields and returns what is left
 * to say elsewhere (a banner or a toast): nothing when the field errors say it all (code `invalid`, every field
 * on the form), the error's message otherwise, `fallback` for a failure without one.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  form: Pick<UseFormReturn<T>, 'setError' | 'getValues'> | LightFormTarget,
  fallback: string,
): string | null {
  if (!(error instanceof ApiError) || !error.fields) return errorMessage(error, fallback);
  const values: object = form.getValues();
  let shown = true;
  for (const [field, message] of Object.entries(error.fields)) {
    // Nested fields come as paths ('slackNotifications.channel').
    if (field.split('.')[0]! in values) form.setError(field as Path<T>, { message: say(message) });
    else shown = false;
  }
  return shown && error.code === 'invalid' ? null : say(error.message);
}

/**
 * A key made once per form, sent with a create request that must not run twice (a double click, a retried
 * request): the server answers a repeated key with the first result.
 */
export const newFormKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
