import { describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES, webhookUrlProblem } from './events';

describe('the webhook URL rule', () => {
  const strict = { allowLoopback: false };
  const loose = { allowLoopback: true };

  it('takes https URLs and refuses http, other schemes and credentials', () => {
    expect(webhookUrlProblem('https://hooks.example.com/pulsecheck?x=1', strict)).toBeNull();
    expect(webhookUrlProblem('http://hooks.example.com/pulsecheck', strict)).toBe(WEBHOOK_MESSAGES.urlHttps);
    expect(webhookUrlProblem('http://hooks.example.com/pulsecheck', loose)).toBe(WEBHOOK_MESSAGES.urlHttps);
    expect(webhookUrlProblem('ftp://hooks.example.com/', strict)).toBe(WEBHOOK_MESSAGES.urlHttps);
    expect(webhookUrlProblem('https://user:pw@hooks.example.com/', strict)).toBe(
      WEBHOOK_MESSAGES.urlCredentials,
    );
    expect(webhookUrlProblem('not a url', strict)).toBe(WEBHOOK_MESSAGES.urlInvalid);
  });

  it('takes http to loopback only with WEBHOOKS_ALLOW_LOOPBACK', () => {
    for (const url of [
      'http://127.0.0.1:4000/hook',
      'http://localhost:4000/hook',
      'http://[::1]:4000/hook',
    ]) {
      expect(webhookUrlProblem(url, loose)).toBeNull();
      expect(webhookUrlProblem(url, strict)).toBe(WEBHOOK_MESSAGES.urlHttps);
    }
    expect(webhookUrlProblem('https://127.0.0.1/hook', strict)).toBe(WEBHOOK_MESSAGES.urlPrivate);
  });
});
