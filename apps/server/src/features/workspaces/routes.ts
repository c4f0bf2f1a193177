import {
  createWorkspaceSchema,
  renameWorkspaceSchema,
  switchWorkspaceSchema,
  workspaceResponseSchema,
  workspacesResponseSchema,
} from '@pulsecheck/shared/workspaces/schemas';
import { routes } from '../../lib/openapi';
import * as service from './service';

export const workspaceRoutes = routes('workspaces')
  .call(
    'get /workspaces',
    "The user's workspaces (admin or member access) and the active one",
    { scope: 'health-checks:read', ok: [200, workspacesResponseSchema, 'Workspaces'] },
    (deps, { userId }) => service.listWorkspaces(deps, userId),
  )
  .call(
    'post /workspaces',
    "Create a workspace in the active workspace's organisation (admins)",
    { body: createWorkspaceSchema, ok: [201, workspaceResponseSchema, 'Created'], errors: [403, 404] },
    async (deps, input) => ({ workspace: await service.createWorkspace(deps, input) }),
  )
  .call(
    'patch /workspaces/{workspaceId}',
    'Rename a workspace (its admins)',
    { body: renameWorkspaceSchema, ok: [200, workspaceResponseSchema, 'Renamed'], errors: [403] },
    async (deps, input) => ({ workspace: await service.renameWorkspace(deps, input) }),
  )
  .call(
    'put /workspaces/active',
    'Choose the active workspace (stored per user)',
    { body: switchWorkspaceSchema, ok: [200, workspacesResponseSchema, 'Switched'], errors: [404] },
    service.switchWorkspace,
  ).router;
