import { describe, expect, it } from 'vitest';
import { lazily } from './lazy';

describe('lazily', () => {
  it('loads once for every call, concurrent calls included', async () => {
    let loads = 0;
    const get = lazily(async () => ++loads);
    expect(await Promise.all([get(), get(), get()])).toEqual([1, 1, 1]);
    expect(await get()).toBe(1);
    expect(loads).toBe(1);
  });

  it('does not keep a failed load: the next call loads again', async () => {
    let loads = 0;
    const get = lazily(async () => {
      loads += 1;
      if (loads === 1) throw new Error('chunk missing');
      return 'loaded';
    });
    await expect(get()).rejects.toThrow('chunk missing');
    expect(await get()).toBe('loaded');
    expect(await get()).toBe('loaded');
    expect(loads).toBe(2);
  });
});
