// Without zod, so the results screen paints without it (decision 0006).
import { HEALTH_CHECK_NOT_FOUND } from '../health-checks/rules';
import { RELEASE_MESSAGES } from './release';

/** Spec section 8 and PRODUCT-DECISIONS 3 wording of the results screen, written once. */
export const RESULTS_MESSAGES = {
  errorTitle: 'results.errorTitle',
  noId: 'results.noId',
  notFound: HEALTH_CHECK_NOT_FOUND,
  untitledCheck: 'results.untitledCheck',
  untitledComponent: 'results.untitledComponent',
  uncategorized: 'results.uncategorized',
  anonymous: 'results.anonymous',
  ...RELEASE_MESSAGES,
  linkCopied: 'results.linkCopied',
  followUpScheduled: 'results.followUpScheduled',
  followUpInPast: 'results.followUpInPast',
} as const;
