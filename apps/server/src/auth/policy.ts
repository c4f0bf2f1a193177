import type { Access, OrganizationRole } from './access';

/**
 * Who may do what (PRODUCT-DECISIONS 3), written once: every service asks `can(actor, action, resource)` and the
 * authorization matrix test checks the routes against the same table. Refusals are the caller's business: a 404
 * for what an outsider may not know of, a 403 for a known thing one may not change.
 */

/**
 * The caller as the policy sees them: their access in the resource's workspace, whether they take part, and their
 * place in the resource's organisation (auth/access.ts: `organizationRoleSql`, the one fact of owner and
 * organisation admin).
 */
export type Actor = {
  userId: string;
  access: Access | null;
  participates?: boolean;
  organizationRole?: OrganizationRole | null;
};
export type Resource = {
  createdBy?: string | null;
  /** A webhook of the whole organisation (no workspace): its owner and organisation admins manage it. */
  organizationWide?: boolean;
};

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
  /**
   * The whole organisation: its sign-in rules (requiring two-factor, single sign-on by OpenID Connect or SAML), insights across all of its
   * workspaces (member of each or not) and the results of their completed checks, read-only. Its owner and the
   * organisation admins the owner appointed.
   */
  'organization:administer': (actor: Actor) =>
    actor.organizationRole === 'owner' || actor.organizationRole === 'admin',
  /**
   * Webhooks (issue 35): a workspace's are managed by its admins; an organisation-wide one (every workspace's events)
   * by the organisation's owner and organisation admins.
   */
  'webhook:manage': (actor: Actor, resource: Resource) =>
    resource.organizationWide
      ? actor.organizationRole === 'owner' || actor.organizationRole === 'admin'
      : actor.access === 'admin',
  /**
   * A workspace's tracker connection (issue 36, decision 0023): its credentials, its webhook secret, whether closing
   * an issue marks an action done. The workspace's admins and the organisation's owner.
   */
  'tracker:manage': (actor: Actor) => actor.access === 'admin' || actor.organizationRole === 'owner',
  /**
   * SCIM provisioning (issue 37, decision 0025): creating and rotating the organisation's SCIM token. The owner only:
   * the token creates people, puts them in any workspace and deactivates anyone but the owner, organisation admins
   * included, which is more than an organisation admin may do.
   */
  'organization:provision': (actor: Actor) => actor.organizationRole === 'owner',
  /**
   * The organisation's audit log (issue 37 item 3, decision 0026): reading, exporting and verifying it, and how long
   * it is kept. Its owner and organisation admins.
   */
  'organization:audit': (actor: Actor) =>
    actor.organizationRole === 'owner' || actor.organizationRole === 'admin',
  /**
   * Shortening how long the audit log keeps entries (which deletes history, an admin's own included): the owner
   * only. Lengthening it is `organization:audit`.
   */
  'organization:shorten-audit-retention': (actor: Actor) => actor.organizationRole === 'owner',
  /** Appointing and removing organisation admins: the owner only. */
  'organization:appoint-admins': (actor: Actor) => actor.organizationRole === 'owner',
} satisfies Record<string, (actor: Actor, resource: Resource) => boolean>;

export type Action = keyof typeof POLICY;

export const can = (actor: Actor, action: Action, resource: Resource = {}): boolean =>
  POLICY[action](actor, resource);
