import {
  templateDetailResponseSchema,
  templatesQuerySchema,
  templatesResponseSchema,
} from '@pulsecheck/shared/templates/schemas';
import { routes } from '../../lib/openapi';
import * as service from './service';

export const templateRoutes = routes('templates')
  .call(
    'get /templates',
    'Global templates and those of the active (or given) workspace',
    { query: templatesQuerySchema, ok: [200, templatesResponseSchema, 'Templates'], errors: [404] },
    async (deps, input) => ({ templates: await service.listTemplates(deps, input) }),
  )
  .call(
    'get /templates/{templateId}',
    "A template with its components ('new' is the global catalogue)",
    { ok: [200, templateDetailResponseSchema, 'The template'], errors: [400] },
    async (deps, input) => ({ template: await service.getTemplate(deps, input) }),
  ).router;
