import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { gateCalls, gated, gatedStorage } from './async-storage';

/** Node's own flag: whether the storage's promise hook is on (not public API; the tests read it to see the cost). */
const enabled = (storage: AsyncLocalStorage<unknown>) => (storage as unknown as { enabled: boolean }).enabled;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('gated storages', () => {
  it('stay on while any call is in flight and go off when the last one ends', async () => {
    const storage = gatedStorage(new AsyncLocalStorage<string>());
    let releaseFirst = () => {};
    const first = gated(() =>
      storage.run('first', async () => {
        await new Promise<void>((resolve) => (releaseFirst = resolve));
        return storage.getStore();
      }),
    );
    const second = gated(() =>
      storage.run('second', async () => {
        await tick();
        expect(enabled(storage)).toBe(true);
        releaseFirst();
        await tick();
        // The first call has ended; this one still reads its own store.
        return storage.getStore();
      }),
    );
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    expect(enabled(storage)).toBe(false);
    // The next call switches it on again.
    expect(await gated(() => storage.run('third', async () => storage.getStore()))).toBe('third');
    expect(enabled(storage)).toBe(false);
  });

  it('pass results and failures through, synchronous or not, and go off after a failure too', async () => {
    const storage = gatedStorage(new AsyncLocalStorage<number>());
    const api = gateCalls({
      double: (n: number) => storage.run(n, () => n * 2),
      fail: async () =>
        storage.run(1, async () => {
          throw new Error('refused');
        }),
      name: 'not a function',
    });
    expect(api.double(21)).toBe(42);
    expect(api.name).toBe('not a function');
    await expect(api.fail()).rejects.toThrow('refused');
    expect(enabled(storage)).toBe(false);
    expect(() =>
      gated(() =>
        storage.run(2, () => {
          throw new Error('thrown');
        }),
      ),
    ).toThrow('thrown');
    expect(enabled(storage)).toBe(false);
  });
});
