import { IntegrationsCard } from '@/features/trackers/integrations-card';
import { WorkspaceSettingsFrame } from '@/features/workspaces/workspace-settings-frame';

/** Workspace settings → 'Integrations' (issue 36): the active workspace's tracker, for its admins. */
export function WorkspaceIntegrationsScreen() {
  return (
    <WorkspaceSettingsFrame tab="integrations">
      {(workspace) => <IntegrationsCard workspaceId={workspace.id} workspaceName={workspace.name} />}
    </WorkspaceSettingsFrame>
  );
}
