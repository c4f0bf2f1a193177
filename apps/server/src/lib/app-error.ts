import {
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  NOT_FOUND_MESSAGES,
} from '@pulsecheck/shared/api/errors';

/** The one error type of the server; mapped to `{ error: { code, message, fields? } }` in app.ts. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }

  get status() {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    return {
      error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) },
    };
  }
}

export const notFound = (what = 'Not found') => new AppError('not_found', what);
export const workspaceNotFound = () => new AppError('workspace_not_found', NOT_FOUND_MESSAGES.workspace);
export const templateNotFound = () => new AppError('template_not_found', NOT_FOUND_MESSAGES.template);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const conflict = (message: string, fields?: Record<string, string>) =>
  new AppError('conflict', message, fields);
export const invalid = (message: string, fields?: Record<string, string>) =>
  new AppError('invalid', message, fields);
