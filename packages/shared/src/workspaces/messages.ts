// Without zod, so the screens that only show these words (the dashboard) paint without it (decision 0006).

/** Workspace wording, written once. */
export const WORKSPACE_MESSAGES = {
  nameRequired: 'workspaces.nameRequired',
  noWorkspace: 'workspaces.noWorkspace',
  noWorkspaceText: 'workspaces.noWorkspaceText',
  created: 'workspaces.created',
  renamed: 'workspaces.renamed',
  switched: 'workspaces.switched',
  adminOnly: 'workspaces.adminOnly',
} as const;
