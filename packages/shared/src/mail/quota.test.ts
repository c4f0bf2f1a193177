import { describe, expect, it } from 'vitest';
import { mailQuotaExceededMessage } from './quota';

describe('mailQuotaExceededMessage', () => {
  it('names the limit, what is left, when it resets and what to do', () => {
    const message = mailQuotaExceededMessage({
      scope: 'organization',
      limit: 1000,
      remaining: 3,
      requested: 200,
    });
    expect(message).toBe(
      'Daily email limit reached: your organization can send up to 1,000 invitation emails a day, 3 left today and this needs 200. The limit resets at midnight UTC. Send fewer emails, share the join link instead, or try again tomorrow.',
    );
    expect(mailQuotaExceededMessage({ scope: 'user', limit: 500, remaining: 0, requested: 1 })).toContain(
      'you can send up to 500 invitation emails a day, 0 left today and this needs 1.',
    );
  });
});
