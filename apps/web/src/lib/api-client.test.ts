import { describe, expect, it } from 'vitest';
import { ApiError, retryDelay, shouldRetry } from './api-client';

describe('retry policy', () => {
  it('retries gateway failures and lost connections, three tries at most', () => {
    for (const error of [
      new ApiError(502, 'internal', 'x'),
      new ApiError(503, 'unavailable', 'x'),
      new ApiError(0, 'network', 'x'),
    ]) {
      expect(shouldRetry(0, error)).toBe(true);
      expect(shouldRetry(1, error)).toBe(true);
      expect(shouldRetry(2, error)).toBe(false);
    }
  });

  it('never retries what the server refused on purpose', () => {
    for (const status of [400, 401, 403, 404, 409, 429, 500]) {
      expect(shouldRetry(0, new ApiError(status, 'invalid', 'x'))).toBe(false);
    }
    expect(shouldRetry(0, new Error('boom'))).toBe(false);
  });

  it('backs off exponentially from 200 ms', () => {
    expect([0, 1, 2].map(retryDelay)).toEqual([200, 400, 800]);
  });
});
