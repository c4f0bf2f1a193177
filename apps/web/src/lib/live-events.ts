import { LIVE_EVENT, type LiveEventType } from '@pulsecheck/shared/realtime/topics';
import { useEffect, useRef } from 'react';

type LiveEvent = { type: LiveEventType | 'message'; topic: string; data: Record<string, unknown> };
type Listener = (event: LiveEvent) => void;

const KNOWN_TYPES = new Set<string>(Object.values(LIVE_EVENT));

/**
 * One EventSource per set of topics in a tab, shared by every hook watching exactly that set. A browser keeps at most six HTTP/1.1 connections to a server
 * for all its tabs together, and each stream holds one for as long as it is open: duplicates would starve the
 * other tabs' requests.
 */
type Stream = {
  source: EventSource | null;
  listeners: Set<Listener>;
  retry?: ReturnType<typeof setTimeout>;
  failures: number;
};
const streams = new Map<string, Stream>();

/** How long to wait before opening a stream again after its `n`th failure in a row: 1, 2, 4… up to 30 s. */
export const reopenDelayMs = (failures: number) => Math.min(30_000, 1_000 * 2 ** Math.max(0, failures - 1));

function openSource(key: string, listeners: Set<Listener>, onClosed: () => void): EventSource {
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
  // A dropped connection the browser retries by itself; an answer that is not a stream (a 503 while the database
  // is away, a restart behind a proxy) closes it for good, so it is opened again here, later and later.
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) onClosed();
  };
  source.onopen = () => {
    const stream = streams.get(key);
    if (stream?.source === source) stream.failures = 0;
  };
  return source;
}

function open(key: string, stream: Stream) {
  stream.source = openSource(key, stream.listeners, () => {
    if (streams.get(key) !== stream || stream.listeners.size === 0) return;
    stream.failures += 1;
    clearTimeout(stream.retry);
    stream.retry = setTimeout(() => {
      if (streams.get(key) === stream && stream.listeners.size > 0) open(key, stream);
    }, reopenDelayMs(stream.failures));
  });
}

function subscribe(key: string, listener: Listener): () => void {
  let stream = streams.get(key);
  if (!stream) {
    stream = { source: null, listeners: new Set<Listener>(), failures: 0 };
    streams.set(key, stream);
    open(key, stream);
  } else if (stream.source?.readyState === EventSource.CLOSED) {
    // Closed and waiting to be opened again: a new subscriber opens it now.
    clearTimeout(stream.retry);
    open(key, stream);
  }
  const current = stream;
  current.listeners.add(listener);
  return () => {
    current.listeners.delete(listener);
    if (current.listeners.size > 0) return;
    clearTimeout(current.retry);
    current.source?.close();
    if (streams.get(key) === current) streams.delete(key);
  };
}

/**
 * Subscribes to server events (GET /api/events) for `topics` (built with `topics` of
 * @pulsecheck/shared/realtime/topics) while the component is mounted; the browser's EventSource reconnects by
 * itself after a dropped connection, and a stream the server refused (503) is opened again with backoff. Events
 * only say that something changed: refetch on them (each (re)connection's first event does, so nothing missed
 * while away stays hidden).
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
