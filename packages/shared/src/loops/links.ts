// Without zod, so the screens that only link to loop pages (the dashboard) paint without it (decision 0006).

/** Web addresses the server puts in e-mails, notifications and answers (the web app serves each one). */
export const LOOP_LINKS = {
  /** The personal answer page of one member and round (the link in the round's e-mail). */
  answer: (token: string) => `/loop-answer/${token}`,
  /**
   * A one-click answer from the e-mail: the answer page with the first question's value chosen. The page records
   * it with a POST only when the person presses 'Send my answer' (never the GET of the link, never on load, so a
   * mail scanner's prefetch or headless browser records nothing).
   */
  quickAnswer: (token: string, value: number) => `/loop-answer/${token}?answer=${value}`,
  /** The answer page of a signed-in member (bell, /dashboard). */
  round: (roundId: string) => `/loop-rounds/${roundId}`,
  completionStatus: (loopId: string) => `/admin/completion-status/${loopId}`,
  results: (loopId: string) => `/admin/loop-results/${loopId}`,
  insights: (loopId: string) => `/admin/loop-insights/${loopId}/overview`,
  /** Configure Loop from a loop template ('Use Template'). */
  configure: (templateId: string) => `/admin/templates/${templateId}/configure`,
} as const;
