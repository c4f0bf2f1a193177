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
  /** `{ count }`: the check's minimum responses now. */
  minResponsesOnlyRises: 'healthChecks.minResponsesOnlyRises',
  anonymityStaysOn: 'healthChecks.anonymityStaysOn',
  commentsStayOff: 'healthChecks.commentsStayOff',
  notAllowed: 'healthChecks.notAllowed',
  invitationSubject: 'healthChecks.invitationSubject',
  /**
   * The Share dialog's 'Slack' button: the message it posts (or copies), `{ title, joinUrl }`, and what it says:
   * `{ channel }` (`slackPostedNoChannel` when the Slack card names none).
   */
  slackInvitation: 'healthChecks.slackInvitation',
  slackPosted: 'healthChecks.slackPosted',
  slackPostedNoChannel: 'healthChecks.slackPostedNoChannel',
  slackCopied: 'healthChecks.slackCopied',
  slackNotConnected: 'healthChecks.slackNotConnected',
  slackFailed: 'healthChecks.slackFailed',
  /** Launch with team e-mails while the server sends no e-mail (MAIL_DISABLED=true). */
  teamNotEmailed: 'healthChecks.teamNotEmailed',
  teamMailOff: 'healthChecks.teamMailOff',
  /** `{ count }`: the check's minimum responses. */
  minResponsesForVoting: 'healthChecks.minResponsesForVoting',
  /** `{ from, to }`: the phases' labels (keys too). */
  wrongTransition: 'healthChecks.wrongTransition',
} as const;
