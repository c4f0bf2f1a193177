import { putVotesSchema, votingStateSchema } from '@pulsecheck/shared/voting/schemas';
import { routes } from '../../lib/openapi';
import * as service from './service';

export const votingRoutes = routes('voting')
  .call(
    'get /health-checks/{healthCheckId}/votes',
    "The caller's dots, the live tally and the components to vote on",
    { scope: 'results:read', ok: [200, votingStateSchema, 'Voting state'] },
    service.getVotingState,
  )
  .call(
    'put /health-checks/{healthCheckId}/votes',
    "Replace the caller's whole dot allocation { componentId: dots } (during the vote phase)",
    { body: putVotesSchema, ok: [200, votingStateSchema, 'Saved'], errors: [403, 409] },
    service.putVotes,
  ).router;
