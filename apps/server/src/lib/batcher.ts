import { faultOf } from '../db/health';

/**
 * Group commit for a hot write: callers submit one item each. Items go at the end of the event-loop round they
 * arrive in, together with the others read in that round (with PGlite, which blocks the loop while it works,
 * that is everything that arrived meanwhile), and items that arrive while `maxInFlight` batches are running
 * wait for the next batch. Under load many writes share one statement and one commit; a lone write waits only
 * for the end of its round.
 *
 * `run` answers one result per item, in order. When a batch of several fails, each item is retried alone, so
 * one bad item cannot fail the others; a lone item's failure is its caller's, and so is a batch's that failed
 * because the database cannot serve (db/health.ts).
 */

export type Batcher<I, O> = { submit(item: I): Promise<O> };

type Waiting<I, O> = { item: I; resolve: (value: O) => void; reject: (reason: unknown) => void };

export function createBatcher<I, O>(
  run: (items: I[]) => Promise<O[]>,
  options: { maxInFlight: number; maxBatch: number },
): Batcher<I, O> {
  const queue: Waiting<I, O>[] = [];
  let inFlight = 0;
  let scheduled = false;

  const settle = async (batch: Waiting<I, O>[]) => {
    try {
      const results = await run(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i] as O));
    } catch (error) {
      // A database that cannot serve fails every item alike: retried one by one they would only wait longer.
      if (batch.length === 1 || faultOf(error)) for (const w of batch) w.reject(error);
      else await Promise.all(batch.map((w) => settle([w])));
    }
  };

  const pump = () => {
    while (inFlight < options.maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, options.maxBatch);
      inFlight++;
      void settle(batch).finally(() => {
        inFlight--;
        pump();
      });
    }
  };

  return {
    submit(item) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => {
            scheduled = false;
            pump();
          });
        }
      });
    },
  };
}
