import { english as words } from '../i18n/english.test-support';
import { describe, expect, it } from 'vitest';
import {
  allParticipantsCompleted,
  canTransition,
  completionRate,
  dashboardStatus,
  isOverdue,
  loosenedSettings,
  nextPhase,
  PHASES,
  phaseAction,
  phaseLabel,
  progressColour,
  STATUS_OF_PHASE,
} from './rules';
import englishWords from '../../messages/en/healthChecks.json';

/** The English words of the shared catalogue, by key. */
const english: Record<string, string> = englishWords;
import { cleanEmails, DEFAULT_SETTINGS, launchSchema, settingsSchema } from './schemas';

describe('status mapping', () => {
  it('maps phase_1 to active, phase_2 to voting, completed to completed, anything else to active', () => {
    expect(dashboardStatus('phase_1')).toBe('active');
    expect(dashboardStatus('phase_2')).toBe('voting');
    expect(dashboardStatus('completed')).toBe('completed');
    expect(dashboardStatus('archived')).toBe('active');
    expect(dashboardStatus('')).toBe('active');
  });

  it('stores the status that belongs to each phase', () => {
    expect(STATUS_OF_PHASE).toEqual({
      collect: 'phase_1',
      vote: 'phase_2',
      summarize: 'completed',
      plan: 'completed',
    });
  });
});

describe('phase machine', () => {
  it('allows only the forward step of each phase', () => {
    const allowed = PHASES.flatMap((from) =>
      PHASES.filter((to) => canTransition(from, to)).map((to) => `${from}>${to}`),
    );
    expect(allowed).toEqual(['collect>vote', 'vote>summarize', 'summarize>plan']);
  });

  it('never goes back, skips or leaves plan', () => {
    expect(canTransition('vote', 'collect')).toBe(false);
    expect(canTransition('collect', 'summarize')).toBe(false);
    expect(canTransition('collect', 'collect')).toBe(false);
    expect(nextPhase('plan')).toBeNull();
    expect(nextPhase('unknown')).toBeNull();
    expect(canTransition('unknown', 'vote')).toBe(false);
  });

  it('labels phases and names the manage action', () => {
    expect(english[phaseLabel('summarize')]).toBe('Summary');
    expect(english[phaseLabel('nonsense')]).toBe('Unknown');
    expect(phaseAction('collect')).toEqual({ to: 'vote', label: 'healthChecks.phaseAction.vote' });
    expect(words.say(phaseAction('collect')?.label ?? '')).toBe('Start Voting Phase');
    expect(phaseAction('vote')).toEqual({ to: 'summarize', label: 'healthChecks.phaseAction.summarize' });
    expect(words.say(phaseAction('vote')?.label ?? '')).toBe('Complete Health Check');
    expect(phaseAction('summarize')).toBeNull();
  });
});

describe('completion rate', () => {
  it.each([
    [0, 0, 0],
    [0, 5, 0],
    [1, 3, 33],
    [2, 3, 67],
    [1, 2, 50],
    [1, 8, 13],
    // 23 of 40 is exactly 57.5: rounds up (a floating-point 23 / 40 * 100 is 57.49… and rounded down).
    [23, 40, 58],
    [5, 5, 100],
  ])('%i of %i is %i%%', (completed, total, rate) => {
    expect(completionRate(completed, total)).toBe(rate);
  });

  it('needs everyone done and the minimum reached for "All participants have completed"', () => {
    expect(allParticipantsCompleted(3, 3, 3)).toBe(true);
    expect(allParticipantsCompleted(2, 2, 3)).toBe(false);
    expect(allParticipantsCompleted(2, 3, 1)).toBe(false);
    expect(allParticipantsCompleted(0, 0, 1)).toBe(false);
  });
});

describe('progress colour', () => {
  it.each([
    [100, 'green'],
    [90, 'green'],
    [89, 'blue'],
    [70, 'blue'],
    [69, 'yellow'],
    [50, 'yellow'],
    [49, 'red'],
    [0, 'red'],
  ] as const)('%i%% is %s', (percent, colour) => {
    expect(progressColour(percent)).toBe(colour);
  });
});

describe('overdue', () => {
  const now = new Date('2026-03-20T12:00:00Z');
  it('is overdue after more than 14 days in collect', () => {
    expect(isOverdue('collect', new Date('2026-03-06T11:59:59Z'), now)).toBe(true);
    expect(isOverdue('collect', new Date('2026-03-06T12:00:00Z'), now)).toBe(false);
    expect(isOverdue('collect', '2026-03-10T00:00:00Z', now)).toBe(false);
  });
  it('is never overdue outside collect', () => {
    expect(isOverdue('vote', new Date('2025-01-01T00:00:00Z'), now)).toBe(false);
  });
});

describe('settings and launch contract', () => {
  it('accepts the defaults and the ends of each range', () => {
    expect(settingsSchema.parse(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
    expect(
      settingsSchema.safeParse({ ...DEFAULT_SETTINGS, minResponses: 50, votesPerPerson: 1 }).success,
    ).toBe(true);
  });
  it.each([
    { minResponses: 0 },
    { minResponses: 51 },
    { minResponses: 2.5 },
    { votesPerPerson: 0 },
    { votesPerPerson: 11 },
  ])('refuses %o', (override) => {
    expect(settingsSchema.safeParse({ ...DEFAULT_SETTINGS, ...override }).success).toBe(false);
  });
  it('refuses a blank title', () => {
    const result = launchSchema.safeParse({
      workspaceId: '00000000-0000-4000-8000-000000000002',
      templateId: '00000000-0000-4000-8000-000000000001',
      title: '   ',
      settings: DEFAULT_SETTINGS,
      enabledComponentIds: [],
      launchKey: 'abcdefgh12',
    });
    expect(result.success).toBe(false);
    expect(english[result.error?.issues[0]?.message ?? '']).toBe('Title is required');
  });
});

describe('team e-mails', () => {
  it('trims, lower-cases, de-duplicates and separates what is not an address', () => {
    expect(
      cleanEmails([' Ann@Example.com ', 'ann@example.com', '', 'bob@example.org', 'nope', 'x@y']),
    ).toEqual({
      valid: ['ann@example.com', 'bob@example.org'],
      invalid: ['nope', 'x@y'],
    });
  });
});

describe('protective settings only get stricter', () => {
  const before = { minResponses: 3, allowAnonymous: false, enableComments: true };

  it('allows every change that is stricter or leaves a setting as it is', () => {
    expect(loosenedSettings(before, before)).toEqual([]);
    expect(
      loosenedSettings(before, { minResponses: 5, allowAnonymous: true, enableComments: false }),
    ).toEqual([]);
  });

  it('names each setting a change would loosen', () => {
    expect(loosenedSettings(before, { ...before, minResponses: 1 })).toEqual(['minResponses']);
    expect(
      loosenedSettings(
        { minResponses: 3, allowAnonymous: true, enableComments: false },
        { minResponses: 2, allowAnonymous: false, enableComments: true },
      ),
    ).toEqual(['minResponses', 'allowAnonymous', 'enableComments']);
  });
});
