import { setupResponseSchema } from '@pulsecheck/shared/auth/schemas';
import { routes } from '../../lib/openapi';
import { setUpOrganization } from './service';

export const onboardingRoutes = routes('onboarding').call(
  'post /onboarding/setup',
  "Create the verified admin's organisation and default workspace (once)",
  { ok: [200, setupResponseSchema, 'Set up'], errors: [409] },
  async ({ db }, { userId }) => {
    await setUpOrganization(db, userId);
    return { redirectTo: '/admin/dashboard' };
  },
).router;
