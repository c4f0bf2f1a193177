import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_STATUS, fieldErrors } from './errors';

describe('fieldErrors', () => {
  it('keeps the first message of each field, keyed by its path', () => {
    const schema = z.object({
      email: z.string().min(1, 'Email is required').email('Email is invalid'),
      settings: z.object({ minResponses: z.number().min(1, 'Too few') }),
    });
    const result = schema.safeParse({ email: '', settings: { minResponses: 0 } });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(fieldErrors(result.error)).toEqual({
        email: 'Email is required',
        'settings.minResponses': 'Too few',
      });
    }
  });
});

describe('ERROR_STATUS', () => {
  it('maps each code to the status of ARCHITECTURE.md', () => {
    expect(ERROR_STATUS).toMatchObject({
      invalid: 400,
      unauthenticated: 401,
      forbidden: 403,
      not_found: 404,
      conflict: 409,
      rate_limited: 429,
    });
  });
});
