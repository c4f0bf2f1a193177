// Without zod, so the screens that only show these words (the dashboard) paint without it (decision 0006).

/** The spec's wording (sections 5, 8 and 9) and PRODUCT-DECISIONS 1, written once. */
export const HEALTH_CHECK_MESSAGES = {
  titleRequired: 'Title is required',
  noEnabledComponents: 'No enabled components found in the template',
  minResponsesRange: 'Minimum responses must be a number from 1 to 50',
  votesPerPersonRange: 'Votes per person must be a number from 1 to 10',
  selectWorkspace: 'Please select a workspace before launching the health check',
  selectWorkspaceFirst: 'Please select a workspace first',
  membershipRequired: 'You must be a workspace member to create a health check',
  launchFailed: 'Failed to create health check. Please try again.',
  loadingTemplate: 'Loading health check template...',
  loadFailed: 'Failed to load health check',
  changePhaseFailed: 'Failed to change phase',
  completeFailed: 'Failed to complete health check',
  movedToVote: 'Successfully moved to vote phase',
  completed: 'Health check completed',
  linkCopied: 'Link copied to clipboard',
  allCompleted: 'All participants have completed',
  confirmTitle: 'Confirm Action',
  confirmText: 'Are you sure you want to proceed? This action cannot be undone.',
  settingsSaved: 'Settings saved',
  settingsLocked: 'Settings can only be changed during the collection phase',
  settingsOnlyStricter:
    'People have joined this health check, so the settings that protect them can only get stricter',
  minResponsesOnlyRises: (n: number) =>
    `Minimum responses can only rise now that people have joined (it is ${n})`,
  anonymityStaysOn: 'Anonymous responses cannot be turned off once people have joined',
  commentsStayOff: 'Comments cannot be turned back on once people have joined',
  notAllowed: 'Only workspace admins and the creator of this health check can manage it',
  invitationSubject: 'Health Check Invitation',
  /** The Share dialog's 'Slack' button: the message it posts (or copies), and what it says. */
  slackInvitation: (title: string, joinUrl: string) => `:wave: Please take part in *${title}*: ${joinUrl}`,
  slackPosted: (channel: string) =>
    channel ? `Posted to ${channel} on Slack` : 'Posted to your Slack channel',
  slackCopied: 'Slack message copied: paste it into your channel',
  slackNotConnected:
    'Slack is not connected: the Slack button copies a message for you to paste. Connect your channel in Notification settings.',
  slackFailed:
    'Slack did not take the message. Check the webhook in Notification settings, or copy the link.',
  /** Launch with team e-mails while the server sends no e-mail (MAIL_DISABLED=true). */
  teamNotEmailed:
    'The join link was not e-mailed to the team: e-mail is switched off on this server. Share the link yourself.',
  teamMailOff:
    'E-mail is switched off on this server: nobody listed here is e-mailed. Share the join link yourself after launch.',
  minResponsesForVoting: (n: number) => `At least ${n} completed responses are needed before voting`,
  wrongTransition: (from: string, to: string) => `A health check in the ${from} phase cannot move to ${to}`,
} as const;
