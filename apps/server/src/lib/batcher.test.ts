import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher';

/** A run whose batches finish only when the test says so. */
function controlledRun() {
  const batches: { items: number[]; finish: (fail?: boolean) => void }[] = [];
  const run = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({
        items,
        finish: (fail) => (fail ? reject(new Error(`batch ${items.join(',')}`)) : resolve(items.map(String))),
      });
    });
  return { batches, run };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('createBatcher', () => {
  it('sends what arrives in one event-loop round together, at its end', async () => {
    const { batches, run } = controlledRun();
    const batcher = createBatcher(run, { maxInFlight: 1, maxBatch: 10 });
    const answers = [batcher.submit(1), batcher.submit(2)];
    expect(batches).toEqual([]);
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1, 2]]);
    batches[0]?.finish();
    await expect(Promise.all(answers)).resolves.toEqual(['1', '2']);
  });

  it('sends a lone item in the next round and answers it', async () => {
    const { batches, run } = controlledRun();
    const batcher = createBatcher(run, { maxInFlight: 1, maxBatch: 10 });
    const answer = batcher.submit(1);
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    batches[0]?.finish();
    await expect(answer).resolves.toBe('1');
  });

  it('groups what arrives while the in-flight limit is reached, up to maxBatch, in arrival order', async () => {
    const { batches, run } = controlledRun();
    const batcher = createBatcher(run, { maxInFlight: 2, maxBatch: 3 });
    const answers = [batcher.submit(1)];
    await tick();
    answers.push(batcher.submit(2));
    await tick();
    answers.push(...[3, 4, 5, 6, 7].map((n) => batcher.submit(n)));
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1], [2]]);
    batches[0]?.finish();
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1], [2], [3, 4, 5]]);
    batches[1]?.finish();
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1], [2], [3, 4, 5], [6, 7]]);
    batches[2]?.finish();
    batches[3]?.finish();
    await expect(Promise.all(answers)).resolves.toEqual(['1', '2', '3', '4', '5', '6', '7']);
  });

  it('retries each item of a failed batch alone, so only the bad one fails', async () => {
    const batcher = createBatcher(
      async (items: number[]) => {
        if (items.includes(13)) throw new Error('unlucky');
        return items.map((n) => n * 2);
      },
      { maxInFlight: 1, maxBatch: 10 },
    );
    const first = batcher.submit(1);
    const rest = [12, 13, 14].map((n) => batcher.submit(n).catch((error: Error) => error.message));
    await expect(first).resolves.toBe(2);
    await expect(Promise.all(rest)).resolves.toEqual([24, 'unlucky', 28]);
  });

  it('keeps going after a failure', async () => {
    const { batches, run } = controlledRun();
    const batcher = createBatcher(run, { maxInFlight: 1, maxBatch: 10 });
    const failed = batcher.submit(1);
    await tick();
    batches[0]?.finish(true);
    await expect(failed).rejects.toThrow('batch 1');
    const next = batcher.submit(2);
    await tick();
    batches[1]?.finish();
    await expect(next).resolves.toBe('2');
  });
});
