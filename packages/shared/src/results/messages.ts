// Without zod, so the results screen paints without it (decision 0006).
import { HEALTH_CHECK_NOT_FOUND } from '../health-checks/rules';
import { RELEASE_MESSAGES } from './release';

/** Spec section 8 and PRODUCT-DECISIONS 3 wording of the results screen, written once. */
export const RESULTS_MESSAGES = {
  errorTitle: 'Error Loading Results',
  noId: 'No health check ID provided',
  notFound: HEALTH_CHECK_NOT_FOUND,
  untitledCheck: 'Untitled Health Check',
  untitledComponent: 'Untitled Component',
  uncategorized: 'Uncategorized',
  anonymous: 'Anonymous',
  ...RELEASE_MESSAGES,
  linkCopied: 'Link copied to clipboard',
  followUpScheduled: 'Follow-up scheduled',
  followUpInPast: 'Choose a date after today',
} as const;
