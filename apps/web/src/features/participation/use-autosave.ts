import type { Responses } from '@pulsecheck/shared/participation/contract';
import { PARTICIPATION_MESSAGES as M } from '@pulsecheck/shared/participation/rules';
import { queryOptions } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api-client';
import { say } from '@/lib/i18n';
import { saveResponses } from './api';

const AUTOSAVE_DELAY_MS = 2000;
const SAVED_VISIBLE_MS = 3000;
const RETRY_MAX_MS = 30_000;

export type SaveState = 'idle' | 'saving' | 'saved' | 'error';

const draftKey = (userId: string, healthCheckId: string) => `pulsecheck:draft:${userId}:${healthCheckId}`;

function storedDraft(userId: string, healthCheckId: string) {
  try {
    return window.localStorage.getItem(draftKey(userId, healthCheckId));
  } catch {
    return null;
  }
}

/**
 * The copy kept in the browser until the server has it, so nothing typed is lost on reload or offline. It is
 * checked with the shared schema, whose code (zod) is loaded only when there is a copy to check: the screen
 * does not wait for it otherwise.
 */
export async function readDraft(userId: string, healthCheckId: string): Promise<Responses | null> {
  const raw = storedDraft(userId, healthCheckId);
  if (!raw) return null;
  try {
    const { responsesSchema } = await import('@pulsecheck/shared/participation/contract');
    const parsed = responsesSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The stored copy of `readDraft`, read once per visit of the screen. */
export const draftQuery = (userId: string, healthCheckId: string) =>
  queryOptions({
    queryKey: ['participation-draft', userId, healthCheckId] as const,
    queryFn: () => readDraft(userId, healthCheckId),
    // Without a stored copy the answer is known at once: nothing to load, nothing to wait for.
    initialData: () => (storedDraft(userId, healthCheckId) ? undefined : null),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

function writeDraft(userId: string, healthCheckId: string, draft: Responses) {
  try {
    window.localStorage.setItem(draftKey(userId, healthCheckId), JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the server copy still follows.
  }
}

export function clearDraft(userId: string, healthCheckId: string) {
  try {
    window.localStorage.removeItem(draftKey(userId, healthCheckId));
  } catch {
    // nothing to clear
  }
}

/**
 * Autosave (spec section 7): 2 s after the last change the responses go to the server; the indicator shows
 * Saving..., Saved (3 s) or Save failed, with the spec's toasts. A lost connection or a gateway error is
 * retried with backoff; until the server confirms, the responses also live in localStorage.
 * `onClosed` is called when the server refuses for good (submitted meanwhile, or rating closed).
 */
export function useAutosave(options: {
  healthCheckId: string;
  userId: string;
  enabled: boolean;
  onClosed: (message: string) => void;
}) {
  const { healthCheckId, userId, enabled } = options;
  const [state, setState] = useState<SaveState>('idle');
  const latest = useRef<Responses | null>(null);
  const version = useRef(0);
  const inFlight = useRef(false);
  const stopped = useRef(false);
  const failures = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const savedTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onClosed = useRef(options.onClosed);
  useEffect(() => {
    onClosed.current = options.onClosed;
  });

  const runRef = useRef<() => Promise<void>>(async () => {});
  const run = useCallback(async () => {
    const draft = latest.current;
    if (!draft || inFlight.current || stopped.current) return;
    const savingVersion = version.current;
    inFlight.current = true;
    setState('saving');
    try {
      await saveResponses(healthCheckId, draft);
      failures.current = 0;
      if (version.current === savingVersion) clearDraft(userId, healthCheckId);
      setState('saved');
      toast.success(say(M.progressSaved), { duration: 1000, id: 'autosave' });
      clearTimeout(savedTimer.current);
      savedTimer.current = setTimeout(
        () => setState((current) => (current === 'saved' ? 'idle' : current)),
        SAVED_VISIBLE_MS,
      );
    } catch (error) {
      setState('error');
      toast.error(say(M.saveFailed), { duration: 2000, id: 'autosave' });
      if (
        error instanceof ApiError &&
        (error.code === 'already_submitted' || error.code === 'rating_closed')
      ) {
        stopped.current = true;
        onClosed.current(error.message);
        return;
      }
      if (error instanceof ApiError && !error.retryable && error.status !== 429) return;
      failures.current += 1;
      clearTimeout(timer.current);
      timer.current = setTimeout(
        () => void runRef.current(),
        Math.min(AUTOSAVE_DELAY_MS * 2 ** failures.current, RETRY_MAX_MS),
      );
      return;
    } finally {
      inFlight.current = false;
    }
    // Changes made while this save was in flight go in the next one.
    if (version.current !== savingVersion) {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void runRef.current(), AUTOSAVE_DELAY_MS);
    }
  }, [healthCheckId, userId]);
  useEffect(() => {
    runRef.current = run;
  }, [run]);

  /** Records a change: kept locally at once, sent to the server 2 s after the last change. */
  const schedule = useCallback(
    (draft: Responses) => {
      if (!enabled) return;
      latest.current = draft;
      version.current += 1;
      writeDraft(userId, healthCheckId, draft);
      if (stopped.current) return;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void run(), AUTOSAVE_DELAY_MS);
    },
    [enabled, healthCheckId, run, userId],
  );

  /** Stops saving (after submit), so no late autosave races the completed state. */
  const stop = useCallback(() => {
    stopped.current = true;
    clearTimeout(timer.current);
  }, []);

  // Coming back online retries at once instead of waiting for the backoff.
  useEffect(() => {
    const online = () => {
      if (latest.current && !stopped.current && failures.current > 0) {
        clearTimeout(timer.current);
        void run();
      }
    };
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [run]);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      clearTimeout(savedTimer.current);
    },
    [],
  );

  return { state, schedule, stop };
}
