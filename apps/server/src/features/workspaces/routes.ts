import { createRoute, z } from '@hono/zod-openapi';
import {
  createWorkspaceSchema,
  renameWorkspaceSchema,
  switchWorkspaceSchema,
  workspaceResponseSchema,
  workspacesResponseSchema,
} from '@pulsecheck/shared/workspaces/schemas';
import { requireUser } from '../../auth/session';
import { errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as service from './service';

const tags = ['workspaces'];
const idParams = z.object({ id: idParam('Workspace not found') });

export const workspaceRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/workspaces',
      tags,
      summary: "The user's workspaces (admin or member access) and the active one",
      responses: { 200: jsonResponse(workspacesResponseSchema, 'Workspaces'), ...errorResponses(401) },
    }),
    async (c) => {
      const user = await requireUser(c);
      return c.json(await service.listWorkspaces(c.get('deps'), user.id), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/workspaces',
      tags,
      summary: "Create a workspace in the active workspace's organisation (admins)",
      request: jsonBody(createWorkspaceSchema),
      responses: {
        201: jsonResponse(workspaceResponseSchema, 'Created'),
        ...errorResponses(400, 401, 403, 404),
      },
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
    createRoute({
      method: 'patch',
      path: '/workspaces/{id}',
      tags,
      summary: 'Rename a workspace (its admins)',
      request: { params: idParams, ...jsonBody(renameWorkspaceSchema) },
      responses: {
        200: jsonResponse(workspaceResponseSchema, 'Renamed'),
        ...errorResponses(400, 401, 403, 404),
      },
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
    createRoute({
      method: 'put',
      path: '/workspaces/active',
      tags,
      summary: 'Choose the active workspace (stored per user)',
      request: jsonBody(switchWorkspaceSchema),
      responses: {
        200: jsonResponse(workspacesResponseSchema, 'Switched'),
        ...errorResponses(400, 401, 404),
      },
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
