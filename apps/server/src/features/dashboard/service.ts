import type { DashboardResponse } from '@pulsecheck/shared/dashboard/schemas';
import { dashboardStats } from '@pulsecheck/shared/dashboard/rules';
import { actionsToFollowUp } from '../follow-ups/service';
import { dashboardLoopItems } from '../loops/service';
import { completionRate, STATUS_OF_PHASE, type Phase } from '@pulsecheck/shared/health-checks/rules';
import { requireWorkspace } from '../../auth/access';
import type { AppDeps } from '../../lib/router';
import { joinUrlFor } from '../health-checks/service';
import { listGlobalTemplates } from '../templates/service';
import { listWorkspaces, resolveActiveWorkspace } from '../workspaces/service';
import { findDashboardItems } from './queries';

type Deps = Pick<AppDeps, 'db' | 'config'>;
const toIso = (value: string | Date) => new Date(value).toISOString();

/**
 * The admin dashboard of the active workspace (or of `workspaceId`, which the user must manage): the items with
 * their counts aggregated in SQL, the stat cards over them (dashboardStats), and the global templates. No workspace: `workspace: null` ('No Workspace Found').
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
    const none = dashboardStats([]);
    return {
      workspace: null,
      stats: none,
      statsByFilter: { all: none, loops: none, 'health-checks': none },
      items: [],
      loops: [],
      actionsToFollowUp: [],
      globalTemplates,
    };
  }
  const items = (await findDashboardItems(deps.db, workspace.id)).map((row) => ({
    id: row.id,
    kind: 'health-check' as const,
    title: row.title,
    description: row.description,
    // The status is the phase's reading for the dashboard (PRODUCT-DECISIONS 1), derived here.
    status: STATUS_OF_PHASE[row.phase as Phase],
    phase: row.phase,
    createdAt: toIso(row.created_at),
    phaseStartedAt: toIso(row.phase_started_at),
    completedAt: row.completed_at ? toIso(row.completed_at) : null,
    responses: row.responses,
    totalParticipants: row.total,
    completionRate: completionRate(row.responses, row.total),
    overdue: row.overdue,
    joinUrl: joinUrlFor(deps.config, row.id),
  }));
  const [loops, nudges] = await Promise.all([
    dashboardLoopItems(deps.db, workspace.id),
    actionsToFollowUp(deps.db, { workspaceId: workspace.id }),
  ]);
  const all = dashboardStats([...items, ...loops]);
  return {
    workspace: { id: workspace.id, name: workspace.name },
    stats: all,
    statsByFilter: { all, loops: dashboardStats(loops), 'health-checks': dashboardStats(items) },
    items,
    loops,
    actionsToFollowUp: nudges.map(({ workspaceName: _, ...nudge }) => nudge),
    globalTemplates,
  };
}
