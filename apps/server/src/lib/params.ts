import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import { z } from '@hono/zod-openapi';
import { UUID_PATTERN } from '@pulsecheck/shared/api/ids';
import { HEALTH_CHECK_NOT_FOUND } from '@pulsecheck/shared/health-checks/rules';
import { TRACKER_MESSAGES } from '@pulsecheck/shared/trackers/rules';
import { WEBHOOK_MESSAGES } from '@pulsecheck/shared/webhooks/events';

/**
 * The one way to declare an id in a path. Anything but a UUID is simply not found: the router answers 404 with
 * `notFoundMessage`, the same answer as for a well-formed id that does not exist or is not the caller's (never a
 * 400, and never a database error). `aliases` are words that stand for an id (the templates' 'new').
 */
export const idParam = (notFoundMessage: string, ...aliases: string[]) =>
  z
    .string()
    .max(64)
    .refine((id) => UUID_PATTERN.test(id) || aliases.includes(id), notFoundMessage);

/** The path token of an e-mailed invitation link (it is the secret, not an id). */
const token = z.string().min(10).max(200);

/**
 * Every parameter a path may hold, declared once by its name: a route's path says which it takes
 * (`/workspaces/{workspaceId}/members/{memberId}`) and the route helper (lib/openapi.ts) validates them from here.
 */
export const PATH_PARAMS = {
  healthCheckId: idParam(HEALTH_CHECK_NOT_FOUND),
  workspaceId: idParam(NOT_FOUND_MESSAGES.workspace),
  organizationId: idParam(NOT_FOUND_MESSAGES.organization),
  memberId: idParam(NOT_FOUND_MESSAGES.member),
  templateId: idParam(NOT_FOUND_MESSAGES.template, 'new'),
  actionItemId: idParam(NOT_FOUND_MESSAGES.actionItem),
  notificationId: idParam(NOT_FOUND_MESSAGES.notification),
  avatarId: idParam(NOT_FOUND_MESSAGES.photo),
  logoId: idParam(NOT_FOUND_MESSAGES.logo),
  loopId: idParam(NOT_FOUND_MESSAGES.loop),
  roundId: idParam(NOT_FOUND_MESSAGES.round),
  apiTokenId: idParam(NOT_FOUND_MESSAGES.apiToken),
  webhookId: idParam(WEBHOOK_MESSAGES.notFound),
  deliveryId: idParam(WEBHOOK_MESSAGES.deliveryNotFound),
  connectionId: idParam(TRACKER_MESSAGES.connectionNotFound),
  /** better-auth's ids (random letters and digits, not UUIDs). */
  passkeyId: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, NOT_FOUND_MESSAGES.passkey),
  token,
};
export type PathParam = keyof typeof PATH_PARAMS;
