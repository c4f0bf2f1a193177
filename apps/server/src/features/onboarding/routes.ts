import { setupResponseSchema } from '@pulsecheck/shared/auth/schemas';
import { requireUser } from '../../auth/session';
import { routesOf } from '../../lib/openapi';
import { createRouter } from '../../lib/router';
import { setUpOrganization } from './service';

const route = routesOf('onboarding');

export const onboardingRoutes = createRouter().openapi(
  route('post /onboarding/setup', "Create the verified admin's organisation and default workspace (once)", {
    ok: [200, setupResponseSchema, 'Set up'],
    errors: [401, 409],
  }),
  async (c) => {
    const user = await requireUser(c);
    await setUpOrganization(c.get('deps').db, user.id);
    return c.json({ redirectTo: '/admin/dashboard' }, 200);
  },
);
