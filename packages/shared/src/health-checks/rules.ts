/**
 * Pure rules of a health check's life (PRODUCT-DECISIONS 1 and 9; spec sections 4 and 9), used by the server,
 * the web app and the tests.
 */

/** The answer to anyone who asks for a check that does not exist or that they may not see. */
export const HEALTH_CHECK_NOT_FOUND = 'healthChecks.notFound';

export const PHASES = ['collect', 'vote', 'summarize', 'plan'] as const;
export type Phase = (typeof PHASES)[number];

export const STATUSES = ['phase_1', 'phase_2', 'completed'] as const;
export type HealthCheckStatus = (typeof STATUSES)[number];

/** The status stored beside each phase: the dashboard's reading of the phase. */
export const STATUS_OF_PHASE: Record<Phase, HealthCheckStatus> = {
  collect: 'phase_1',
  vote: 'phase_2',
  summarize: 'completed',
  plan: 'completed',
};

/** The one allowed move out of each phase; nothing goes back. */
const NEXT_PHASE: Record<Phase, Phase | null> = {
  collect: 'vote',
  vote: 'summarize',
  summarize: 'plan',
  plan: null,
};

export const isPhase = (value: string): value is Phase => (PHASES as readonly string[]).includes(value);

export function nextPhase(phase: string): Phase | null {
  return isPhase(phase) ? NEXT_PHASE[phase] : null;
}

export function canTransition(from: string, to: string): boolean {
  return nextPhase(from) === to;
}

/** The phases' names on every screen. */
export const PHASE_LABELS: Record<Phase, string> = {
  collect: 'healthChecks.phaseCollect',
  vote: 'healthChecks.phaseVote',
  summarize: 'healthChecks.phaseSummarize',
  plan: 'healthChecks.phasePlan',
};

/** A phase's label; 'Unknown' for anything unexpected. */
export const phaseLabel = (phase: string): string =>
  isPhase(phase) ? PHASE_LABELS[phase] : 'healthChecks.phaseUnknown';

/** The stepper of the manage screen (PRODUCT-DECISIONS 9). */
export const STEPPER_PHASES: { phase: Phase; label: string }[] = (
  ['collect', 'vote', 'summarize'] as const
).map((phase) => ({ phase, label: PHASE_LABELS[phase] }));

export type DashboardStatus = 'active' | 'voting' | 'completed';

/** phase_1 is active, phase_2 voting, completed completed, anything else active (spec section 4). */
export function dashboardStatus(status: string): DashboardStatus {
  if (status === 'phase_2') return 'voting';
  if (status === 'completed') return 'completed';
  return 'active';
}

/** Completed participants over all participants, times 100, rounded; 0 when there are none. */
export function completionRate(completed: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((completed * 100) / total);
}

export type ProgressColour = 'green' | 'blue' | 'yellow' | 'red';

/** Progress bar colour: green at 90 or above, blue at 70, yellow at 50, otherwise red. */
export function progressColour(percent: number): ProgressColour {
  if (percent >= 90) return 'green';
  if (percent >= 70) return 'blue';
  if (percent >= 50) return 'yellow';
  return 'red';
}

export const OVERDUE_AFTER_DAYS = 14;

/** Overdue: in `collect` for more than 14 days (PRODUCT-DECISIONS 9). */
export function isOverdue(phase: string, phaseStartedAt: Date | string, now: Date = new Date()): boolean {
  if (phase !== 'collect') return false;
  const started = typeof phaseStartedAt === 'string' ? new Date(phaseStartedAt) : phaseStartedAt;
  return now.getTime() - started.getTime() > OVERDUE_AFTER_DAYS * 24 * 60 * 60 * 1000;
}

/** 'All participants have completed': everyone is done and at least minResponses have answered. */
export function allParticipantsCompleted(completed: number, total: number, minResponses: number): boolean {
  return total > 0 && completed === total && completed >= minResponses;
}

/** The manage screen's primary action for a phase, if any; its label a catalogue key. */
export function phaseAction(phase: string): { to: Phase; label: string } | null {
  if (phase === 'collect') return { to: 'vote', label: 'healthChecks.phaseAction.vote' };
  if (phase === 'vote') return { to: 'summarize', label: 'healthChecks.phaseAction.summarize' };
  return null;
}

export type ProtectiveSettings = { minResponses: number; allowAnonymous: boolean; enableComments: boolean };
export type ProtectiveSetting = keyof ProtectiveSettings;

/**
 * PRODUCT-DECISIONS 3: once anyone has joined, the settings that protect participants only get stricter:
 * `minResponses` may rise, `allowAnonymous` may go from off to on, `enableComments` may go off. Returns the
 * settings that a change from `before` to `after` would loosen (none: the change is allowed).
 */
export function loosenedSettings(before: ProtectiveSettings, after: ProtectiveSettings): ProtectiveSetting[] {
  const loosened: ProtectiveSetting[] = [];
  if (after.minResponses < before.minResponses) loosened.push('minResponses');
  if (before.allowAnonymous && !after.allowAnonymous) loosened.push('allowAnonymous');
  if (!before.enableComments && after.enableComments) loosened.push('enableComments');
  return loosened;
}
