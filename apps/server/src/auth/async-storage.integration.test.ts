import type { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { createAdmin, me, signIn } from '../test/accounts';
import { useTestContext } from '../test/harness';
import { gatedStorages } from './async-storage';

const ctx = useTestContext();

const enabled = (storage: unknown) => (storage as AsyncLocalStorage<unknown> & { enabled: boolean }).enabled;

describe("better-auth's request storages", () => {
  it('are off once its calls have ended (sign-up, verification, set-up, sign-in), and it still works after', async () => {
    const admin = await createAdmin(ctx);
    const [a, b] = await Promise.all([
      signIn(ctx, admin.email, admin.password),
      signIn(ctx, admin.email, admin.password),
    ]);
    // better-auth's three storages were found (a new version that renames them fails here), and all are off.
    expect(gatedStorages().length).toBeGreaterThanOrEqual(3);
    expect(gatedStorages().map(enabled)).toEqual(gatedStorages().map(() => false));
    // Switched off between calls, they are switched on again by the next: both sessions work.
    for (const jar of [a, b]) expect((await me(ctx, jar)).user.id).toBe(admin.userId);
    const again = await signIn(ctx, admin.email, admin.password);
    expect((await me(ctx, again)).user.id).toBe(admin.userId);
    expect(gatedStorages().map(enabled)).toEqual(gatedStorages().map(() => false));
  });
});
