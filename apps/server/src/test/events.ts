import type { RealtimeEvent } from '../realtime/bus';
import type { TestContext } from './harness';

/** Live events: the bus the server publishes on, and the Server-Sent Events stream a browser reads. */

/** Resolves with the first event on `topic`, or rejects after `ms`. */
export function nextEvent(ctx: TestContext, topic: string, ms = 3000) {
  return new Promise<RealtimeEvent>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no event on ${topic}`));
    }, ms);
    const stop = ctx.deps.realtime.subscribe([topic], (event) => {
      clearTimeout(timer);
      stop();
      resolve(event);
    });
  });
}

/** Reads an answer of GET /api/events as it comes. */
export function readEventStream(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  return {
    /** Reads until an event of `type` has come. */
    async waitFor(type: string) {
      while (!text.includes(`"type":"${type}"`)) text += (await reader.read()).value ?? '';
    },
    /** Resolves with everything the stream sent until it ended, or cancels it when it is still open after `ms`. */
    async ended(ms = 3000) {
      let timedOut = false;
      const deadline = setTimeout(() => {
        timedOut = true;
        void reader.cancel();
      }, ms);
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (value) text += value;
        if (done) break;
      }
      clearTimeout(deadline);
      return { text, closedByServer: !timedOut };
    },
    cancel: () => reader.cancel(),
  };
}
