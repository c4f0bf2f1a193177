import { okSchema } from '@pulsecheck/shared/auth/schemas';
import { actionItemSchema } from '@pulsecheck/shared/results/schemas';
import {
  checkTrackerSchema,
  createTrackerIssueSchema,
  linkTrackerIssueSchema,
  trackerConnectedSchema,
  trackerConnectionResponseSchema,
  trackerConnectSchema,
  trackerRepositoriesSchema,
  trackerSettingsSchema,
} from '@pulsecheck/shared/trackers/rules';
import { routes } from '../../lib/openapi';
import { AppError } from '../../lib/app-error';
import { receiveWebhook } from '../../trackers/sync';
import * as service from './service';

// Trackers (issue 36, decision 0023). The connection (its credentials) is for browser sessions only: a token that
// may write action items should not be able to swap the credentials the server calls a tracker with. The issues of
// action items are open to API tokens with action-items:read/write, like the action items themselves.
export const trackerRoutes = routes('trackers')
  .call(
    'get /workspaces/{workspaceId}/tracker-connection',
    "The workspace's tracker connection (its admins and the organisation's owner); never its token",
    { ok: [200, trackerConnectionResponseSchema, 'The connection, or null'] },
    service.getConnection,
  )
  .call(
    'put /workspaces/{workspaceId}/tracker-connection',
    'Connect the tracker (or save a new token): tested on save; the webhook secret is answered this once',
    { body: trackerConnectSchema, ok: [200, trackerConnectedSchema, 'Connected'] },
    (deps, input, _user, locale) => service.connect(deps, input, locale),
  )
  .call(
    'patch /workspaces/{workspaceId}/tracker-connection',
    "Whether an issue closed in the tracker marks its action item done; the webhooks' signing secret of a tracker that makes its own (Linear)",
    { body: trackerSettingsSchema, ok: [200, trackerConnectionResponseSchema, 'Saved'], errors: [409] },
    service.updateSettings,
  )
  .call(
    'delete /workspaces/{workspaceId}/tracker-connection',
    'Disconnect: the credentials and the links go, the action items stay',
    { ok: [200, okSchema, 'Disconnected'] },
    service.disconnect,
  )
  .call(
    'get /health-checks/{healthCheckId}/tracker',
    "The tracker the check's action items can go to, or null (those who oversee the check)",
    { ok: [200, checkTrackerSchema, 'The tracker'], scope: 'action-items:read' },
    service.checkTracker,
  )
  .call(
    'get /action-items/{actionItemId}/tracker-repositories',
    'The repositories an issue for this action item may be created in, as the tracker lists them',
    { ok: [200, trackerRepositoriesSchema, 'Repositories'], errors: [409], scope: 'action-items:read' },
    service.listRepositories,
  )
  .call(
    'post /action-items/{actionItemId}/tracker-issue',
    'Create an issue for the action item in the tracker (by a job: the answer shows it being created)',
    {
      body: createTrackerIssueSchema,
      ok: [202, actionItemSchema, 'Being created'],
      errors: [409],
      scope: 'action-items:write',
    },
    service.createIssue,
  )
  .call(
    'post /action-items/{actionItemId}/tracker-link',
    'Link an existing issue of the tracker to the action item, by its URL',
    {
      body: linkTrackerIssueSchema,
      ok: [200, actionItemSchema, 'Linked'],
      errors: [409],
      scope: 'action-items:write',
    },
    service.linkIssue,
  )
  .call(
    'delete /action-items/{actionItemId}/tracker-issue',
    'Unlink the issue (it stays in the tracker)',
    { ok: [200, actionItemSchema, 'Unlinked'], scope: 'action-items:write' },
    service.unlinkIssue,
  )
  .handle(
    'post /tracker-connections/{connectionId}/webhook',
    "The tracker's webhooks for this connection, verified by the vendor's signature or token (GitHub: X-Hub-Signature-256; GitLab: X-Gitlab-Token; Linear: Linear-Signature and the signed webhookTimestamp; Jira: X-Hub-Signature)",
    { public: true, ok: [200, okSchema, 'Received'], errors: [401] },
    async (c) => {
      const outcome = await receiveWebhook(c.get('deps'), {
        connectionId: c.req.valid('param').connectionId,
        headers: c.req.raw.headers,
        rawBody: await c.req.text(),
      });
      if (outcome === 'unknown') throw new AppError('not_found', service.CONNECTION_NOT_FOUND);
      if (outcome === 'refused') throw new AppError('unauthenticated', 'errors.signatureWrong');
      return c.json({ ok: true as const }, 200);
    },
  ).router;
