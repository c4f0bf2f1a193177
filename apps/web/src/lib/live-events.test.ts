import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reopenDelayMs, useLiveEvents } from './live-events';

/** A stand-in for the browser's EventSource: records each one opened, and lets the test close it as a 503 does. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onerror: (() => void) | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((event: MessageEvent<string>) => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener() {}
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  /** The server answered with something that is not a stream: the browser closes it for good. */
  refuse() {
    this.readyState = FakeEventSource.CLOSED;
    this.onerror?.();
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useLiveEvents', () => {
  it('opens a stream the server refused (a 503 while the database is away) again, later and later', () => {
    const { unmount } = renderHook(() => useLiveEvents(['user:1'], () => {}));
    expect(FakeEventSource.opened).toHaveLength(1);
    FakeEventSource.opened[0]!.refuse();
    vi.advanceTimersByTime(reopenDelayMs(1) - 1);
    expect(FakeEventSource.opened).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.opened).toHaveLength(2);
    FakeEventSource.opened[1]!.refuse();
    vi.advanceTimersByTime(reopenDelayMs(2));
    expect(FakeEventSource.opened).toHaveLength(3);
    // Once nobody listens, nothing is opened again.
    unmount();
    FakeEventSource.opened[2]!.refuse();
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.opened).toHaveLength(3);
  });

  it('waits 1, 2, 4 … seconds, at most 30', () => {
    expect([1, 2, 3, 4, 6, 10].map(reopenDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 30_000, 30_000]);
  });
});
