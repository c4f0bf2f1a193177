import type { Access } from './access';

/**
 * Who may do what (PRODUCT-DECISIONS 3), written once: every service asks `can(actor, action, resource)` and the
 * authorization matrix test checks the routes against the same table. Refusals are the caller's business: a 404
 * for what an outsider may not know of, a 403 for a known thing one may not change.
 */

/** The caller as the policy sees them: their access in the resource's workspace, and whether they take part. */
export type Actor = { userId: string; access: Access | null; participates?: boolean };
export type Resource = { createdBy?: string | null };

const managesWorkspace = (actor: Actor) => actor.access === 'admin' || actor.access === 'member';
/** Workspace admins change everything of theirs; a member changes only what they created. */
const changesOwn = (actor: Actor, resource: Resource) =>
  actor.access === 'admin' || (actor.access === 'member' && resource.createdBy === actor.userId);

export const POLICY = {
  /** The workspace's admin area: dashboard, templates, team list, live events; launching health checks. */
  'workspace:use': (actor: Actor) => managesWorkspace(actor),
  /** The workspace's people and name: invitations, members, renaming. */
  'workspace:administer': (actor: Actor) => actor.access === 'admin',
  /** Seeing a health check at all: its results (as released), the voting view, its live events. */
  'check:view': (actor: Actor) => managesWorkspace(actor) || Boolean(actor.participates),
  /** Overseeing a check: the manage screen, participants, results as a manager, action items, follow-up. */
  'check:oversee': (actor: Actor) => managesWorkspace(actor),
  /** Changing a check: phases, settings, 'Plan Actions'. Workspace admins, and the member who created it. */
  'check:change': changesOwn,
  /** Taking part: joining, rating, voting. Any active member of the workspace, link participants included. */
  'check:participate': (actor: Actor) => actor.access !== null,
  /** Seeing a loop: Completion Status, results, insights, its live events. As health checks: admins and members. */
  'loop:oversee': (actor: Actor) => managesWorkspace(actor),
  /** Changing a loop: edit, pause, resume, stop, open and close rounds, reminders. Admins, and its creator. */
  'loop:change': changesOwn,
  /** Changing or deleting a workspace's own template. Admins, and its creator. */
  'template:change': changesOwn,
} satisfies Record<string, (actor: Actor, resource: Resource) => boolean>;

export type Action = keyof typeof POLICY;

export const can = (actor: Actor, action: Action, resource: Resource = {}): boolean =>
  POLICY[action](actor, resource);
