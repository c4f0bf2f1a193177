import type { TemplateDetail } from '@pulsecheck/shared/templates/schemas';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from './api-client';

/**
 * One template (GET /templates/{id}): a health check's components or a loop's questions and defaults. Read by both
 * configure screens and by /admin/templates/{id}/configure, which picks between them, so they share the cache.
 */
export const templateQuery = (templateId: string) =>
  queryOptions({
    queryKey: ['template', templateId],
    queryFn: ({ signal }) =>
      apiGet<{ template: TemplateDetail }>(`/templates/${encodeURIComponent(templateId)}`, signal),
    select: (data) => data.template,
    retry: false,
  });
