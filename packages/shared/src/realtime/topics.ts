/**
 * Live events (Server-Sent Events through GET /api/events): the topics a client may watch and the event types the
 * server sends, written once for both sides. Events carry a type and ids only; screens refetch what they may see.
 */

export const topics = {
  /** Dashboards and manage screens of a workspace (its admins and members). */
  workspace: (id: string) => `workspace:${id}`,
  /** One health check: manage, participation, voting tallies, results. */
  healthCheck: (id: string) => `health-check:${id}`,
  /** One loop: Completion Status, results and insights (its admins and members). */
  loop: (id: string) => `loop:${id}`,
  /** One user's notifications and access changes. */
  user: (id: string) => `user:${id}`,
} as const;

/** What a topic looks like on the wire. */
export const TOPIC_PATTERN = /^(workspace|health-check|loop|user):[\w-]{1,64}$/;

export const LIVE_EVENT = {
  /** The stream is open. */
  ready: 'ready',
  /** A check's phase, settings or responses changed. */
  healthCheckChanged: 'health-check-changed',
  /** Someone joined a check. */
  participantsChanged: 'participants-changed',
  /** Someone placed or moved dots. */
  votesChanged: 'votes-changed',
  /** An action item of a check changed. */
  actionItemsChanged: 'changed',
  /**
   * A loop changed: a round opened or closed, someone answered, its settings or status changed. Carries the
   * loop's id only, never a figure (an open anonymous round's figures are secret); screens refetch.
   */
  loopChanged: 'loop-changed',
  /** A notification arrived for the user, or was read. */
  notification: 'notification',
  /** The user's sessions or memberships changed: open streams re-check their right to exist. */
  accessChanged: 'access-changed',
  /** The stream's session or access is gone; the server closes it. */
  sessionEnded: 'session-ended',
} as const;

export type LiveEventType = (typeof LIVE_EVENT)[keyof typeof LIVE_EVENT];
