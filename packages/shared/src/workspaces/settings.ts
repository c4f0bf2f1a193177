// Without zod, like messages.ts: the sidebar and the settings frame only show these words (catalogue keys).

/**
 * Workspace settings: one page per tab under `/admin/workspace-settings`, for the active workspace's admins (the
 * server decides each action; this only names the tabs). Organisation-wide settings live on the Organisation tab
 * of Account Settings (`ORGANISATION_SETTINGS_PATH`).
 */
export const WORKSPACE_SETTINGS = {
  title: 'breadcrumbs.workspaceSettings',
  path: '/admin/workspace-settings',
  adminsOnly: 'workspaces.settingsAdminsOnly',
  tabs: [
    { key: 'webhooks', label: 'breadcrumbs.webhooks', path: '/admin/workspace-settings/webhooks' },
    {
      key: 'integrations',
      label: 'breadcrumbs.integrations',
      path: '/admin/workspace-settings/integrations',
    },
  ],
} as const;

export type WorkspaceSettingsTab = (typeof WORKSPACE_SETTINGS.tabs)[number]['key'];

/** The path of a workspace settings tab. */
export const workspaceSettingsPath = (tab: WorkspaceSettingsTab) =>
  WORKSPACE_SETTINGS.tabs.find((entry) => entry.key === tab)?.path ?? WORKSPACE_SETTINGS.path;

/** Organisation settings: the Organisation tab of Account Settings (branding, organisation-wide webhooks). */
export const ORGANISATION_SETTINGS_PATH = '/admin/account-settings/organisation';
