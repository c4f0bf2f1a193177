import type { ErrorBody, ErrorCode } from '@pulsecheck/shared/api/errors';
import { currentLocale, t } from './i18n';

/** The one client-side error: the server's `{ error: { code, message, fields? } }`, or a network failure. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'network',
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }

  /** Gateway failures and lost connections may succeed when tried again (PRODUCT-DECISIONS 9). */
  get retryable() {
    return this.code === 'network' || this.status === 502 || this.status === 503 || this.status === 504;
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    'error' in value &&
    typeof value.error === 'object' &&
    value.error !== null &&
    'message' in value.error &&
    typeof value.error.message === 'string'
  );
}

type RequestOptions = { body?: unknown; signal?: AbortSignal; headers?: Record<string, string> };

export async function api<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  let response: Response;
  // A form (a file upload) goes as multipart, with the boundary the browser sets; anything else as JSON.
  const form = options.body instanceof FormData ? options.body : null;
  try {
    response = await fetch(`/api${path}`, {
      method,
      credentials: 'same-origin',
      signal: options.signal,
      headers: {
        Accept: 'application/json',
        // The server answers its messages in the app's language (decision 0027).
        'Accept-Language': currentLocale(),
        ...(options.body !== undefined && !form ? { 'Content-Type': 'application/json' } : {}),
        ...options.headers,
      },
      body: form ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', t('common.networkError'));
  }
  const text = await response.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!response.ok) {
    if (isErrorBody(data)) {
      throw new ApiError(response.status, data.error.code, data.error.message, data.error.fields);
    }
    throw new ApiError(
      response.status,
      response.status >= 500 ? 'internal' : 'invalid',
      t('common.requestFailed', { status: response.status }),
    );
  }
  return data as T;
}

export const apiGet = <T>(path: string, signal?: AbortSignal) => api<T>('GET', path, { signal });
export const apiPost = <T>(path: string, body?: unknown) => api<T>('POST', path, { body });
export const apiPut = <T>(path: string, body?: unknown) => api<T>('PUT', path, { body });
export const apiPatch = <T>(path: string, body?: unknown) => api<T>('PATCH', path, { body });
export const apiDelete = <T>(path: string) => api<T>('DELETE', path);

/** Retry policy shared by queries and idempotent mutations: three tries at most, backoff from 200 ms. */
export function shouldRetry(failureCount: number, error: unknown) {
  return failureCount < 2 && error instanceof ApiError && error.retryable;
}
export const retryDelay = (attempt: number) => 200 * 2 ** attempt;
