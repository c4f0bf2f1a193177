import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { english } from '../test/requests';
import { routes } from './openapi';

const ok = [200, z.object({ ok: z.literal(true) }), 'Done'] as const;

describe('route declarations', () => {
  it('validates the parameters a path names from their one declaration', async () => {
    const router = routes('test').handle('get /things/{healthCheckId}', 'A thing', { ok }, (c) =>
      c.json({ ok: true as const }, 200),
    ).router;
    const doc = router.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } });
    const parameters = doc.paths?.['/things/{healthCheckId}']?.get?.parameters;
    expect(parameters).toEqual([
      expect.objectContaining({ name: 'healthCheckId', in: 'path', required: true }),
    ]);
    // A malformed id is not found, with the name's own message (the app answers that AppError with a 404).
    let thrown: unknown;
    router.onError((error, c) => {
      thrown = error;
      return c.text('', 500);
    });
    await router.request('/things/not-a-uuid');
    expect(thrown).toMatchObject({ code: 'not_found' });
    // The message is a catalogue key, said in the request's language when the body is made (app.ts).
    expect(english((thrown as Error).message)).toBe('Health check not found');
  });

  it('refuses a path parameter that has no declaration', () => {
    expect(() =>
      routes('test').handle('get /things/{thingId}', 'A thing', { ok }, (c) =>
        c.json({ ok: true as const }, 200),
      ),
    ).toThrow(/declare \{thingId\} in PATH_PARAMS/);
  });
});
