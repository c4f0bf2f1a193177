import { createRoute, z } from '@hono/zod-openapi';
import { RESULTS_MESSAGES } from '@pulsecheck/shared/results/schemas';
import { putVotesSchema, votingStateSchema } from '@pulsecheck/shared/voting/schemas';
import { requireUser } from '../../auth/session';
import { errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as service from './service';

const tags = ['voting'];
const params = z.object({ healthCheckId: idParam(RESULTS_MESSAGES.notFound) });

export const votingRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/health-checks/{healthCheckId}/votes',
      tags,
      summary: "The caller's dots, the live tally and the components to vote on",
      request: { params },
      responses: { 200: jsonResponse(votingStateSchema, 'Voting state'), ...errorResponses(401, 404) },
    }),
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
    createRoute({
      method: 'put',
      path: '/health-checks/{healthCheckId}/votes',
      tags,
      summary: "Replace the caller's whole dot allocation { componentId: dots } (during the vote phase)",
      request: { params, ...jsonBody(putVotesSchema) },
      responses: {
        200: jsonResponse(votingStateSchema, 'Saved'),
        ...errorResponses(400, 401, 403, 404, 409),
      },
    }),
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
