import { LIVE_EVENT, type LiveEventType } from '@pulsecheck/shared/realtime/topics';
import { useEffect, useRef } from 'react';

type LiveEvent = { type: LiveEventType | 'message'; topic: string; data: Record<string, unknown> };
type Listener = (event: LiveEvent) => void;

const KNOWN_TYPES = new Set<string>(Object.values(LIVE_EVENT));

/**
 * One EventSource per set of topics in a tab, shared by every hook watching exactly that set (the admin layout
 * mounts two bells, for narrow and wide screens). A browser keeps at most six HTTP/1.1 connections to a server
 * for all its tabs together, and each stream holds one for as long as it is open: duplicates would starve the
 * other tabs' requests.
 */
const streams = new Map<string, { source: EventSource; listeners: Set<Listener> }>();

function openSource(key: string, listeners: Set<Listener>): EventSource {
  const params = new URLSearchParams(key.split(',').map((topic) => ['topic', topic]));
  const source = new EventSource(`/api/events?${params.toString()}`);
  const dispatch = (message: MessageEvent<string>) => {
    let data: Record<string, unknown> = {};
    try {
      data = JSON.parse(message.data) as Record<string, unknown>;
    } catch {
      // keep the empty payload
    }
    // The server names the event in the payload; a named SSE event carries it as the message's type.
    const named = typeof data.type === 'string' ? data.type : message.type;
    const event: LiveEvent = {
      type: KNOWN_TYPES.has(named) ? (named as LiveEventType) : 'message',
      topic: typeof data.topic === 'string' ? data.topic : '',
      data,
    };
    for (const listener of [...listeners]) listener(event);
  };
  source.onmessage = dispatch;
  for (const type of KNOWN_TYPES) source.addEventListener(type, dispatch);
  return source;
}

function subscribe(key: string, listener: Listener): () => void {
  let stream = streams.get(key);
  if (!stream) {
    const listeners = new Set<Listener>();
    stream = { source: openSource(key, listeners), listeners };
    streams.set(key, stream);
  } else if (stream.source.readyState === EventSource.CLOSED) {
    // The browser gave up on it (the server refused or ended it): a new subscriber starts a new one.
    stream.source = openSource(key, stream.listeners);
  }
  const current = stream;
  current.listeners.add(listener);
  return () => {
    current.listeners.delete(listener);
    if (current.listeners.size > 0) return;
    current.source.close();
    if (streams.get(key) === current) streams.delete(key);
  };
}

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
    return subscribe(key, (event) => handler.current(event));
  }, [key, enabled]);
}
