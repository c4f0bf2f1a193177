import type { DashboardResponse } from '@pulsecheck/shared/dashboard/schemas';
import { requireWorkspace } from '../../auth/access';
import type { AppDeps } from '../../lib/router';
import { joinUrlFor } from '../health-checks/service';
import { listGlobalTemplates } from '../templates/service';
import { listWorkspaces, resolveActiveWorkspace } from '../workspaces/service';
import { findDashboardItems, findDashboardStats } from './queries';

type Deps = Pick<AppDeps, 'db' | 'config'>;
const toIso = (value: string | Date) => new Date(value).toISOString();

/**
 * The admin dashboard of the active workspace (or of `workspaceId`, which the user must manage): figures and
 * items computed in SQL, and the global templates. No workspace: `workspace: null` ('No Workspace Found').
 */
export async function getDashboard(
  deps: Deps,
  options: { userId: string; workspaceId?: string },
): Promise<DashboardResponse> {
  let workspace: { id: string; name: string } | null;
  if (options.workspaceId) {
    await requireWorkspace(deps.db, options.userId, options.workspaceId);
    const { workspaces } = await listWorkspaces(deps, options.userId);
    workspace = workspaces.find((w) => w.id === options.workspaceId) ?? null;
  } else {
    workspace = await resolveActiveWorkspace(deps, options.userId);
  }
  const globalTemplates = await listGlobalTemplates(deps);
  if (!workspace) {
    return {
      workspace: null,
      stats: { activeSurveys: 0, totalResponses: 0, avgCompletionRate: 0, activeCount: 0, completedCount: 0 },
      items: [],
      globalTemplates,
    };
  }
  const [rows, stats] = await Promise.all([
    findDashboardItems(deps.db, workspace.id),
    findDashboardStats(deps.db, workspace.id),
  ]);
  return {
    workspace: { id: workspace.id, name: workspace.name },
    stats: {
      // Loops are not built yet, so the active items are the active health checks.
      activeSurveys: stats.active_count,
      totalResponses: stats.total_responses,
      avgCompletionRate: stats.avg_completion_rate,
      activeCount: stats.active_count,
      completedCount: stats.completed_count,
    },
    items: rows.map((row) => ({
      id: row.id,
      kind: 'health-check' as const,
      title: row.title,
      description: row.description,
      status: row.status,
      phase: row.phase,
      createdAt: toIso(row.created_at),
      phaseStartedAt: toIso(row.phase_started_at),
      completedAt: row.completed_at ? toIso(row.completed_at) : null,
      responses: row.responses,
      totalParticipants: row.total,
      completionRate: row.completion_rate,
      overdue: row.overdue,
      joinUrl: joinUrlFor(deps.config, row.id),
    })),
    globalTemplates,
  };
}
