import { createRoute, z } from '@hono/zod-openapi';
import {
  followUpRequestSchema,
  followUpResponseSchema,
  planResponseSchema,
  RESULTS_MESSAGES,
  resultsResponseSchema,
} from '@pulsecheck/shared/results/schemas';
import { requireUser } from '../../auth/session';
import { errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as service from './service';

const tags = ['results'];
const params = z.object({ healthCheckId: idParam(RESULTS_MESSAGES.notFound) });
const attachment = (filename: string) => `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`;

export const resultsRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/health-checks/{healthCheckId}/results',
      tags,
      summary: 'Results of a health check, as far as the caller may see them (release and anonymity rules)',
      request: { params },
      responses: { 200: jsonResponse(resultsResponseSchema, 'Results'), ...errorResponses(401, 404) },
    }),
    async (c) => {
      const user = await requireUser(c);
      const results = await service.getResults(c.get('deps'), {
        userId: user.id,
        healthCheckId: c.req.valid('param').healthCheckId,
      });
      c.header('Cache-Control', 'no-store');
      return c.json(results, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/health-checks/{healthCheckId}/results/csv',
      tags,
      summary: 'The results as a CSV download',
      request: { params },
      responses: {
        200: { description: 'CSV', content: { 'text/csv': { schema: z.string() } } },
        ...errorResponses(401, 404, 409),
      },
    }),
    async (c) => {
      const user = await requireUser(c);
      const { csv, filename } = await service.exportResultsCsv(c.get('deps'), {
        userId: user.id,
        healthCheckId: c.req.valid('param').healthCheckId,
      });
      return c.body(csv, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': attachment(filename),
        'Cache-Control': 'no-store',
      });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/health-checks/{healthCheckId}/plan',
      tags,
      summary: "'Plan Actions': move a completed check from summarize to plan",
      request: { params },
      responses: { 200: jsonResponse(planResponseSchema, 'Moved'), ...errorResponses(401, 403, 404, 409) },
    }),
    async (c) => {
      const user = await requireUser(c);
      const result = await service.planActions(c.get('deps'), {
        userId: user.id,
        healthCheckId: c.req.valid('param').healthCheckId,
      });
      return c.json(result, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/health-checks/{healthCheckId}/follow-up',
      tags,
      summary: "'Schedule Follow-up': e-mail the creator on that date",
      request: { params, ...jsonBody(followUpRequestSchema) },
      responses: { 200: jsonResponse(followUpResponseSchema, 'Scheduled'), ...errorResponses(400, 401, 404) },
    }),
    async (c) => {
      const user = await requireUser(c);
      const result = await service.scheduleFollowUp(c.get('deps'), {
        userId: user.id,
        healthCheckId: c.req.valid('param').healthCheckId,
        date: c.req.valid('json').date,
      });
      return c.json(result, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/health-checks/{healthCheckId}/follow-up/calendar',
      tags,
      summary: 'The follow-up as an .ics calendar file',
      request: { params, query: followUpRequestSchema },
      responses: {
        200: { description: 'iCalendar', content: { 'text/calendar': { schema: z.string() } } },
        ...errorResponses(400, 401, 404),
      },
    }),
    async (c) => {
      const user = await requireUser(c);
      const { ics, filename } = await service.followUpCalendar(c.get('deps'), {
        userId: user.id,
        healthCheckId: c.req.valid('param').healthCheckId,
        date: c.req.valid('query').date,
      });
      return c.body(ics, 200, {
        'Content-Type': 'text/calendar; charset=utf-8',
        'Content-Disposition': attachment(filename),
      });
    },
  );
