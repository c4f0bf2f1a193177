import { z } from '@hono/zod-openapi';
import {
  createWorkspaceSchema,
  renameWorkspaceSchema,
  switchWorkspaceSchema,
  workspaceResponseSchema,
  workspacesResponseSchema,
} from '@pulsecheck/shared/workspaces/schemas';
import { requireUser } from '../../auth/session';
import { routesOf } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as service from './service';

const route = routesOf('workspaces');
const idParams = z.object({ id: idParam('Workspace not found') });

export const workspaceRoutes = createRouter()
  .openapi(
    route('get /workspaces', "The user's workspaces (admin or member access) and the active one", {
      ok: [200, workspacesResponseSchema, 'Workspaces'],
      errors: [401],
    }),
    async (c) => {
      const user = await requireUser(c);
      return c.json(await service.listWorkspaces(c.get('deps'), user.id), 200);
    },
  )
  .openapi(
    route('post /workspaces', "Create a workspace in the active workspace's organisation (admins)", {
      body: createWorkspaceSchema,
      ok: [201, workspaceResponseSchema, 'Created'],
      errors: [400, 401, 403, 404],
    }),
    async (c) => {
      const user = await requireUser(c);
      const workspace = await service.createWorkspace(c.get('deps'), {
        userId: user.id,
        name: c.req.valid('json').name,
      });
      return c.json({ workspace }, 201);
    },
  )
  .openapi(
    route('patch /workspaces/{id}', 'Rename a workspace (its admins)', {
      params: idParams,
      body: renameWorkspaceSchema,
      ok: [200, workspaceResponseSchema, 'Renamed'],
      errors: [400, 401, 403, 404],
    }),
    async (c) => {
      const user = await requireUser(c);
      const workspace = await service.renameWorkspace(c.get('deps'), {
        userId: user.id,
        workspaceId: c.req.valid('param').id,
        name: c.req.valid('json').name,
      });
      return c.json({ workspace }, 200);
    },
  )
  .openapi(
    route('put /workspaces/active', 'Choose the active workspace (stored per user)', {
      body: switchWorkspaceSchema,
      ok: [200, workspacesResponseSchema, 'Switched'],
      errors: [400, 401, 404],
    }),
    async (c) => {
      const user = await requireUser(c);
      return c.json(
        await service.switchWorkspace(c.get('deps'), {
          userId: user.id,
          workspaceId: c.req.valid('json').workspaceId,
        }),
        200,
      );
    },
  );
