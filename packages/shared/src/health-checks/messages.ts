// Without zod, so the screens that only show these words (the dashboard) paint without it (decision 0006).

/** The spec's wording (sections 5, 8 and 9) and PRODUCT-DECISIONS 1, written once. */
export const HEALTH_CHECK_MESSAGES = {
  titleRequired: 'healthChecks.titleRequired',
  noEnabledComponents: 'healthChecks.noEnabledComponents',
  minResponsesRange: 'healthChecks.minResponsesRange',
  votesPerPersonRange: 'healthChecks.votesPerPersonRange',
  selectWorkspace: 'healthChecks.selectWorkspace',
  selectWorkspaceFirst: 'healthChecks.selectWorkspaceFirst',
  membershipRequired: 'healthChecks.membershipRequired',
  launchFailed: 'healthChecks.launchFailed',
  loadingTemplate: 'healthChecks.loadingTemplate',
  loadFailed: 'healthChecks.loadFailed',
  changePhaseFailed: 'healthChecks.changePhaseFailed',
  completeFailed: 'healthChecks.completeFailed',
  movedToVote: 'healthChecks.movedToVote',
  completed: 'healthChecks.completed',
  linkCopied: 'healthChecks.linkCopied',
  allCompleted: 'healthChecks.allCompleted',
  confirmTitle: 'healthChecks.confirmTitle',
  confirmText: 'healthChecks.confirmText',
  settingsSaved: 'healthChecks.settingsSaved',
  settingsLocked: 'healthChecks.settingsLocked',
  settingsOnlyStricter: 'healthChecks.settingsOnlyStricter',
  minResponsesOnlyRises: (n: number) =>
    `Minimum responses can only rise now that people have joined (it is ${n})`,
  anonymityStaysOn: 'healthChecks.anonymityStaysOn',
  commentsStayOff: 'healthChecks.commentsStayOff',
  notAllowed: 'healthChecks.notAllowed',
  invitationSubject: 'Health Check Invitation',
  /** The Share dialog's 'Slack' button: the message it posts (or copies), and what it says. */
  slackInvitation: (title: string, joinUrl: string) => `:wave: Please take part in *${title}*: ${joinUrl}`,
  slackPosted: (channel: string) =>
    channel ? `Posted to ${channel} on Slack` : 'Posted to your Slack channel',
  slackCopied: 'healthChecks.slackCopied',
  slackNotConnected: 'healthChecks.slackNotConnected',
  slackFailed: 'healthChecks.slackFailed',
  /** Launch with team e-mails while the server sends no e-mail (MAIL_DISABLED=true). */
  teamNotEmailed: 'healthChecks.teamNotEmailed',
  teamMailOff: 'healthChecks.teamMailOff',
  minResponsesForVoting: (n: number) => `At least ${n} completed responses are needed before voting`,
  wrongTransition: (from: string, to: string) => `A health check in the ${from} phase cannot move to ${to}`,
} as const;
