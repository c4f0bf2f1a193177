import { okSchema } from '@pulsecheck/shared/auth/schemas';
import {
  saveLoopTemplateSchema,
  savedTemplateResponseSchema,
  updateLoopTemplateSchema,
} from '@pulsecheck/shared/loops/contract';
import {
  saveHealthCheckTemplateSchema,
  templateDetailResponseSchema,
  templateTextSchema,
  templatesQuerySchema,
  templatesResponseSchema,
} from '@pulsecheck/shared/templates/schemas';
import { routes } from '../../lib/openapi';
import * as service from './service';

export const templateRoutes = routes('templates')
  .call(
    'get /templates',
    'Global templates and those of the active (or given) workspace',
    {
      scope: 'health-checks:read',
      query: templatesQuerySchema,
      ok: [200, templatesResponseSchema, 'Templates'],
      errors: [404],
    },
    async (deps, input) => ({ templates: await service.listTemplates(deps, input) }),
  )
  .call(
    'get /templates/{templateId}',
    "A template with its components ('new' is the global catalogue)",
    { scope: 'health-checks:read', ok: [200, templateDetailResponseSchema, 'The template'], errors: [400] },
    async (deps, input) => ({ template: await service.getTemplate(deps, input) }),
  )
  .call(
    'post /templates',
    'Save a loop template in a workspace (its admins and members)',
    {
      scope: 'health-checks:write',
      body: saveLoopTemplateSchema,
      ok: [201, savedTemplateResponseSchema, 'Saved'],
      errors: [404],
    },
    service.createLoopTemplate,
  )
  .call(
    'post /templates/health-checks',
    "Save as template: a workspace health-check template from Configure's choices (its admins and members)",
    {
      scope: 'health-checks:write',
      body: saveHealthCheckTemplateSchema,
      ok: [201, savedTemplateResponseSchema, 'Saved'],
      errors: [404, 409],
    },
    service.createHealthCheckTemplate,
  )
  .call(
    'patch /templates/{templateId}',
    "Rename a workspace's template: title and description (its admins, and the member who made it)",
    {
      scope: 'health-checks:write',
      body: templateTextSchema,
      ok: [200, savedTemplateResponseSchema, 'Saved'],
      errors: [403],
    },
    service.renameTemplate,
  )
  .call(
    'put /templates/{templateId}',
    "Change a workspace's loop template (its admins, and the member who made it)",
    {
      scope: 'health-checks:write',
      body: updateLoopTemplateSchema,
      ok: [200, savedTemplateResponseSchema, 'Saved'],
      errors: [403, 409],
    },
    service.editLoopTemplate,
  )
  .call(
    'delete /templates/{templateId}',
    "Delete a workspace's template (its admins, and the member who made it); checks keep their snapshot",
    { scope: 'health-checks:write', ok: [200, okSchema, 'Deleted'], errors: [403] },
    service.removeTemplate,
  ).router;
