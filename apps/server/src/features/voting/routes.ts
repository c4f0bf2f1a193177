import { z } from '@hono/zod-openapi';
import { RESULTS_MESSAGES } from '@pulsecheck/shared/results/schemas';
import { putVotesSchema, votingStateSchema } from '@pulsecheck/shared/voting/schemas';
import { requireUser } from '../../auth/session';
import { routesOf } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as service from './service';

const route = routesOf('voting');
const params = z.object({ healthCheckId: idParam(RESULTS_MESSAGES.notFound) });

export const votingRoutes = createRouter()
  .openapi(
    route(
      'get /health-checks/{healthCheckId}/votes',
      "The caller's dots, the live tally and the components to vote on",
      { params, ok: [200, votingStateSchema, 'Voting state'], errors: [401, 404] },
    ),
    async (c) => {
      const user = await requireUser(c);
      const state = await service.getVotingState(c.get('deps'), {
        userId: user.id,
        healthCheckId: c.req.valid('param').healthCheckId,
      });
      return c.json(state, 200);
    },
  )
  .openapi(
    route(
      'put /health-checks/{healthCheckId}/votes',
      "Replace the caller's whole dot allocation { componentId: dots } (during the vote phase)",
      {
        params,
        body: putVotesSchema,
        ok: [200, votingStateSchema, 'Saved'],
        errors: [400, 401, 403, 404, 409],
      },
    ),
    async (c) => {
      const user = await requireUser(c);
      const state = await service.putVotes(c.get('deps'), {
        userId: user.id,
        healthCheckId: c.req.valid('param').healthCheckId,
        allocation: c.req.valid('json').allocation,
      });
      return c.json(state, 200);
    },
  );
