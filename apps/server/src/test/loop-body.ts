/**
 * A valid 'Launch Loop' body, with nothing but types and `unique` imported: the API tests (test/loops.ts) and the
 * browser tests (e2e/support/loops.ts) launch the same loop.
 */

import type { LaunchLoopInput } from '@pulsecheck/shared/loops/schemas';
import { unique } from './unique';

/**
 * A valid 'Launch Loop' body, with nothing but types and `unique` imported: the API tests (test/loops.ts) and the
 * browser tests (e2e/support/loops.ts) launch the same loop.
 */

export const scaleQuestion = (text = 'How was your week?') => ({
  kind: 'scale' as const,
  text,
  lowLabel: 'Rough',
  highLabel: 'Great',
});

/** A valid 'Launch Loop' body: a scale, an eNPS and a free-text question, starting now. */
export function loopBody(workspaceId: string, overrides: Partial<LaunchLoopInput> = {}): LaunchLoopInput {
  return {
    title: `Pulse ${unique('loop')}`,
    description: 'How is the team doing?',
    questions: [
      scaleQuestion(),
      { kind: 'enps', text: 'How likely are you to recommend the team?' },
      { kind: 'text', text: 'Anything else?' },
    ],
    audience: { kind: 'all' },
    cadence: 'weekly',
    weekday: 'monday',
    time: '09:00',
    timeZone: 'Europe/Berlin',
    roundDays: 3,
    anonymous: true,
    minResponses: 3,
    reminder: true,
    start: 'now',
    workspaceId,
    templateId: null,
    launchKey: unique('launch-key'),
    ...overrides,
  };
}
