// Without zod, so the screens that only show these words (the dashboard) paint without it (decision 0006).

/** Workspace wording, written once. */
export const WORKSPACE_MESSAGES = {
  nameRequired: 'Workspace name is required',
  noWorkspace: 'No Workspace Found',
  noWorkspaceText:
    'You are not a member of any workspace yet. Please contact your administrator to be added to one.',
  created: 'Workspace created',
  renamed: 'Workspace renamed',
  switched: 'Active workspace changed',
  adminOnly: 'Only workspace admins can do this',
} as const;
