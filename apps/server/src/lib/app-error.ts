import {
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  NOT_FOUND_MESSAGES,
} from '@pulsecheck/shared/api/errors';
import { readMessage } from '@pulsecheck/shared/i18n/message';
import type { MessageValues, Translator } from '@pulsecheck/shared/i18n/translate';

/**
 * A message in the request's language: a catalogue key ('errors.notFound', 'auth.emailRequired') is translated
 * with `values` filled in (a value that is itself a key, a phase's label say, is translated too), and so is a key
 * that carries its own values (`messageWith`: a zod issue's message with numbers in it); any other text (a
 * library's, zod's own) is sent as it is.
 */
export function translateMessage(translator: Translator, message: string, values?: MessageValues): string {
  const { key, values: carried } = readMessage(message);
  if (!translator.has(key)) return message;
  const all = { ...carried, ...values };
  const filled = Object.fromEntries(
    Object.entries(all).map(([name, value]) => [
      name,
      typeof value === 'string' ? translator.say(value) : value,
    ]),
  );
  return translator.t(key, filled);
}

/**
 * The one error type of the server; mapped to `{ error: { code, message, fields? } }` in app.ts. `message` and
 * the `fields`' messages are catalogue keys (or, for a few, text as it is), translated only when the body is made
 * (`toBody`, in the request's language); `values` fill the message's placeholders.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly values?: MessageValues,
  ) {
    super(message);
  }

  get status() {
    return ERROR_STATUS[this.code];
  }

  /** The response body, its messages in `translator`'s language (as they are, keys included, without one). */
  toBody(translator?: Translator): ErrorBody {
    const say = (text: string, values?: MessageValues) =>
      translator ? translateMessage(translator, text, values) : text;
    const fields = this.fields
      ? Object.fromEntries(
          Object.entries(this.fields).map(([field, text]) => [field, say(text, this.values)]),
        )
      : undefined;
    return {
      error: { code: this.code, message: say(this.message, this.values), ...(fields ? { fields } : {}) },
    };
  }
}

export const notFound = (what = 'errors.notFound') => new AppError('not_found', what);
export const workspaceNotFound = () => new AppError('workspace_not_found', NOT_FOUND_MESSAGES.workspace);
export const templateNotFound = () => new AppError('template_not_found', NOT_FOUND_MESSAGES.template);
export const forbidden = (message: string, values?: MessageValues) =>
  new AppError('forbidden', message, undefined, values);
export const conflict = (message: string, fields?: Record<string, string>, values?: MessageValues) =>
  new AppError('conflict', message, fields, values);
export const invalid = (message: string, fields?: Record<string, string>, values?: MessageValues) =>
  new AppError('invalid', message, fields, values);
