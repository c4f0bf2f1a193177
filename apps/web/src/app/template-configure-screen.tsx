import { Navigate, useParams } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { useTemplate } from '@/features/health-checks/api';
import { t } from '@/lib/i18n';

/**
 * /admin/templates/{id}/configure (PRODUCT-DECISIONS 4): a health-check template opens the health-check configure
 * screen, a loop template Configure Loop. The template's type decides; an unknown one lands on the health-check
 * screen, which says it was not found.
 */
export function TemplateConfigureScreen() {
  const { templateId = '' } = useParams();
  const template = useTemplate(templateId);
  if (template.isPending) return <Spinner label={t('templates.loadingTemplate')} className="py-16" />;
  const id = encodeURIComponent(templateId);
  const to =
    template.data?.type === 'loop'
      ? `/admin/configure-loop/new?template=${id}`
      : `/admin/configure-health-check/${id}`;
  return <Navigate to={to} replace />;
}
