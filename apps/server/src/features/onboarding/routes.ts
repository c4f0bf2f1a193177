import { createRoute } from '@hono/zod-openapi';
import { setupResponseSchema } from '@pulsecheck/shared/auth/schemas';
import { requireUser } from '../../auth/session';
import { errorResponses, jsonResponse } from '../../lib/openapi';
import { createRouter } from '../../lib/router';
import { setUpOrganization } from './service';

export const onboardingRoutes = createRouter().openapi(
  createRoute({
    method: 'post',
    path: '/onboarding/setup',
    tags: ['onboarding'],
    summary: "Create the verified admin's organisation and default workspace (once)",
    responses: { 200: jsonResponse(setupResponseSchema, 'Set up'), ...errorResponses(401, 409) },
  }),
  async (c) => {
    const user = await requireUser(c);
    await setUpOrganization(c.get('deps').db, user.id);
    return c.json({ redirectTo: '/admin/dashboard' }, 200);
  },
);
