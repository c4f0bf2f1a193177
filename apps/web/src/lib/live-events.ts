import { LIVE_EVENT, type LiveEventType } from '@pulsecheck/shared/realtime/topics';
import { useEffect, useRef } from 'react';

type LiveEvent = { type: LiveEventType | 'message'; topic: string; data: Record<string, unknown> };

const KNOWN_TYPES = new Set<string>(Object.values(LIVE_EVENT));

/**
 * Subscribes to server events (GET /api/events) for `topics` (built with `topics` of
 * @pulsecheck/shared/realtime/topics) while the component is mounted; the browser's EventSource reconnects by
 * itself. Events only say that something changed: refetch on them.
 */
export function useLiveEvents(topics: string[], onEvent: (event: LiveEvent) => void, enabled = true) {
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  const key = [...topics].sort().join(',');
  useEffect(() => {
    // Live updates are an enhancement: without EventSource (old browsers, jsdom) screens still refetch as usual.
    if (!enabled || !key || typeof EventSource === 'undefined') return;
    const params = new URLSearchParams(key.split(',').map((topic) => ['topic', topic]));
    const source = new EventSource(`/api/events?${params.toString()}`);
    const listener = (message: MessageEvent<string>) => {
      let data: Record<string, unknown> = {};
      try {
        data = JSON.parse(message.data) as Record<string, unknown>;
      } catch {
        // keep the empty payload
      }
      // The server names the event in the payload; a named SSE event carries it as the message's type.
      const named = typeof data.type === 'string' ? data.type : message.type;
      handler.current({
        type: KNOWN_TYPES.has(named) ? (named as LiveEventType) : 'message',
        topic: typeof data.topic === 'string' ? data.topic : '',
        data,
      });
    };
    source.onmessage = listener;
    for (const type of KNOWN_TYPES) source.addEventListener(type, listener);
    return () => source.close();
  }, [key, enabled]);
}
