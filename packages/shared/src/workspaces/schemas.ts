import { z } from 'zod';
import { requiredText } from '../api/fields';
import { WORKSPACE_MESSAGES } from './messages';

const name = requiredText(
  WORKSPACE_MESSAGES.nameRequired,
  120,
  'Workspace name must be at most 120 characters',
);

export const createWorkspaceSchema = z.strictObject({ name });
export const renameWorkspaceSchema = z.strictObject({ name });
export const switchWorkspaceSchema = z.strictObject({ workspaceId: z.uuid('Unknown workspace') });

export const workspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  /** The user's role in the organisation: 'owner', 'admin' (an organisation admin) or null. */
  organizationRole: z.enum(['owner', 'admin']).nullable(),
  isDefault: z.boolean(),
  access: z.enum(['admin', 'member']),
  createdAt: z.string(),
});
export type Workspace = z.infer<typeof workspaceSchema>;

export const workspacesResponseSchema = z.object({
  workspaces: z.array(workspaceSchema),
  /** The stored active workspace when the user may still use it, else the first one, else null. */
  activeWorkspaceId: z.string().nullable(),
});
export type WorkspacesResponse = z.infer<typeof workspacesResponseSchema>;

export const workspaceResponseSchema = z.object({ workspace: workspaceSchema });
