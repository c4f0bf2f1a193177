import { useEffect, useRef } from 'react';

export type LiveEvent = { type: string; topic: string; data: Record<string, unknown> };

/**
 * Subscribes to server events (GET /api/events) for `topics` while the component is mounted; the browser's
 * EventSource reconnects by itself. Events only say that something changed: refetch on them.
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
      handler.current({ type: message.type, topic: typeof data.topic === 'string' ? data.topic : '', data });
    };
    source.onmessage = listener;
    const known = [
      'health-check-changed',
      'participants-changed',
      'phase-changed',
      'votes-changed',
      'notification',
      'changed',
    ];
    for (const type of known) source.addEventListener(type, listener);
    return () => source.close();
  }, [key, enabled]);
}
