import type { Workspace, WorkspacesResponse } from '@pulsecheck/shared/workspaces/schemas';
import { WORKSPACE_MESSAGES } from '@pulsecheck/shared/workspaces/messages';
import { changedFields, recordAudit, type AuditBy } from '../../audit/record';
import { requireWorkspace } from '../../auth/access';
import { can } from '../../auth/policy';
import type { Db } from '../../db/client';
import { forbidden, notFound } from '../../lib/app-error';
import {
  findManagedWorkspaces,
  findPreferredWorkspaceId,
  findWorkspaceOrganization,
  insertWorkspace,
  storePreferredWorkspace,
  updateWorkspaceName,
} from './queries';

type Deps = { db: Db };

const toWorkspace = (row: Awaited<ReturnType<typeof findManagedWorkspaces>>[number]): Workspace => ({
  ...row,
  access: row.access === 'admin' ? 'admin' : 'member',
  createdAt: row.createdAt.toISOString(),
});

/**
 * The user's workspaces (admin or member access) and the active one: the stored preference while the user may
 * still use it, else the first workspace, else null ('No Workspace Found').
 */
export async function listWorkspaces(deps: Deps, userId: string): Promise<WorkspacesResponse> {
  const [rows, preferred] = await Promise.all([
    findManagedWorkspaces(deps.db, userId),
    findPreferredWorkspaceId(deps.db, userId),
  ]);
  const workspaces = rows.map(toWorkspace);
  const active = workspaces.find((w) => w.id === preferred) ?? workspaces[0] ?? null;
  return { workspaces, activeWorkspaceId: active?.id ?? null };
}

/** The active workspace of the admin area, or null when the user manages none. */
export async function resolveActiveWorkspace(deps: Deps, userId: string): Promise<Workspace | null> {
  const { workspaces, activeWorkspaceId } = await listWorkspaces(deps, userId);
  return workspaces.find((w) => w.id === activeWorkspaceId) ?? null;
}

/** A new workspace in the organisation of the user's active workspace; only that workspace's admins may. */
export async function createWorkspace(deps: Deps, options: { userId: string; name: string; by: AuditBy }) {
  const active = await resolveActiveWorkspace(deps, options.userId);
  if (!active) throw notFound();
  if (!can({ userId: options.userId, access: active.access }, 'workspace:administer'))
    throw forbidden(WORKSPACE_MESSAGES.adminOnly);
  const organizationId = await findWorkspaceOrganization(deps.db, active.id);
  if (!organizationId) throw notFound();
  const id = await deps.db.transaction(async (tx) => {
    const created = await insertWorkspace(tx, {
      name: options.name,
      organizationId,
      createdBy: options.userId,
    });
    await recordAudit(tx, organizationId, options.by, {
      action: 'workspace.created',
      targetType: 'workspace',
      targetId: created,
      targetLabel: options.name,
    });
    return created;
  });
  const { workspaces } = await listWorkspaces(deps, options.userId);
  const created = workspaces.find((w) => w.id === id);
  if (!created) throw notFound();
  return created;
}

export async function renameWorkspace(
  deps: Deps,
  options: { userId: string; workspaceId: string; name: string; by: AuditBy },
) {
  await requireWorkspace(deps.db, options.userId, options.workspaceId, {
    action: 'workspace:administer',
    refuseMembers: () => forbidden(WORKSPACE_MESSAGES.adminOnly),
  });
  await deps.db.transaction(async (tx) => {
    const before = await updateWorkspaceName(tx, options.workspaceId, options.name);
    const changes = changedFields({ name: before.name }, { name: options.name });
    if (Object.keys(changes).length > 0)
      await recordAudit(tx, before.organizationId, options.by, {
        action: 'workspace.renamed',
        targetType: 'workspace',
        targetId: options.workspaceId,
        targetLabel: options.name,
        changes,
      });
  });
  const { workspaces } = await listWorkspaces(deps, options.userId);
  const renamed = workspaces.find((w) => w.id === options.workspaceId);
  if (!renamed) throw notFound();
  return renamed;
}

/** Stores the active workspace (user_preferences); the user must be an admin or member of it. */
export async function switchWorkspace(deps: Deps, options: { userId: string; workspaceId: string }) {
  await requireWorkspace(deps.db, options.userId, options.workspaceId);
  await storePreferredWorkspace(deps.db, options.userId, options.workspaceId);
  return listWorkspaces(deps, options.userId);
}

/** Makes a workspace the user's active one (user_preferences), inside `db` or a transaction; no access check. */
export const rememberActiveWorkspace = (db: Db, userId: string, workspaceId: string) =>
  storePreferredWorkspace(db, userId, workspaceId);
