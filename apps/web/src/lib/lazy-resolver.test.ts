import type { Resolver } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { lazyResolver } from './lazy-resolver';

type Values = { email: string };
const options = { fields: {}, shouldUseNativeValidation: false } as Parameters<Resolver<Values>>[2];

describe('lazyResolver', () => {
  it('loads the real resolver once, on preload or first validation, and validates with it', async () => {
    const real = vi.fn<Resolver<Values>>(async (values) => ({ values, errors: {} }));
    const load = vi.fn(async () => real);
    const { resolver, preload } = lazyResolver<Values>(load);
    expect(load).not.toHaveBeenCalled();
    preload();
    preload();
    const result = await resolver({ email: 'a@example.com' }, undefined, options);
    expect(result).toEqual({ values: { email: 'a@example.com' }, errors: {} });
    await resolver({ email: 'b@example.com' }, undefined, options);
    expect(load).toHaveBeenCalledTimes(1);
    expect(real).toHaveBeenCalledTimes(2);
  });

  it('tries the load again after a failure', async () => {
    const real: Resolver<Values> = async (values) => ({ values, errors: {} });
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(real);
    const { resolver } = lazyResolver<Values>(load);
    await expect(resolver({ email: '' }, undefined, options)).rejects.toThrow('offline');
    await expect(resolver({ email: '' }, undefined, options)).resolves.toEqual({
      values: { email: '' },
      errors: {},
    });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
