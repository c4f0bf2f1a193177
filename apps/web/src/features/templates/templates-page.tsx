import { TEMPLATE_MESSAGES, type TemplateSummary } from '@pulsecheck/shared/templates/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LayoutTemplate, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { TOAST, toast } from '@/components/ui/toaster';
import { apiDelete, apiGet, apiPatch } from '@/lib/api-client';
import { errorMessage } from '@/lib/forms';
import { say, t } from '@/lib/i18n';
import { TemplateTextDialog } from '@/lib/template-text-dialog';
import { LoadFailed, StateCard } from '@/components/ui/state-card';

const FILTERS = ['all', 'health-check', 'loop'] as const;
type Filter = (typeof FILTERS)[number];

/** A filter button's words. */
const filterLabel = (filter: Filter) =>
  filter === 'all'
    ? t('templates.filterAll')
    : filter === 'loop'
      ? t('templates.filterLoops')
      : t('templates.filterHealthChecks');

const readFilter = (value: string | null): Filter => FILTERS.find((f) => f === value) ?? 'all';

/** Where 'Use Template' leads: health-check templates to their configure screen, loop templates to Configure Loop. */
const configurePath = (template: TemplateSummary) =>
  template.type === 'loop'
    ? `/admin/templates/${template.id}/configure`
    : `/admin/configure-health-check/${template.id}`;

export function TemplatesPage() {
  const [params, setParams] = useSearchParams();
  const filter = readFilter(params.get('type'));
  const templates = useQuery({
    queryKey: ['templates'],
    queryFn: ({ signal }) => apiGet<{ templates: TemplateSummary[] }>('/templates', signal),
  });
  const listed = (templates.data?.templates ?? []).filter((t) => filter === 'all' || t.type === filter);
  const [deleting, setDeleting] = useState<TemplateSummary | null>(null);
  const [editing, setEditing] = useState<TemplateSummary | null>(null);
  const queryClient = useQueryClient();
  const choose = (value: Filter) => setParams(value === 'all' ? {} : { type: value }, { replace: true });

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <h1 className="text-2xl font-semibold text-slate-900">{t('templates.title')}</h1>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" asChild>
            <Link to="/admin/configure-loop/new">
              <Plus aria-hidden="true" />
              {t('templates.createLoop')}
            </Link>
          </Button>
          <Button asChild>
            <Link to="/admin/configure-health-check/new">
              <Plus aria-hidden="true" />
              {t('templates.createHealthCheck')}
            </Link>
          </Button>
        </div>
      </div>
      <div role="group" aria-label={t('templates.filter')} className="flex flex-wrap gap-2">
        {FILTERS.map((value) => (
          <Button
            key={value}
            size="sm"
            variant={filter === value ? 'primary' : 'secondary'}
            aria-pressed={filter === value}
            onClick={() => choose(value)}
          >
            {filterLabel(value)}
          </Button>
        ))}
      </div>
      {templates.isPending ? (
        <Spinner label={t('templates.loading')} className="py-12" />
      ) : templates.isError ? (
        <LoadFailed
          title={t('templates.loadFailed')}
          message={templates.error.message}
          onRetry={() => void templates.refetch()}
        />
      ) : listed.length === 0 ? (
        <StateCard
          icon={<LayoutTemplate className="mx-auto mb-3 size-10 text-slate-400" aria-hidden="true" />}
          message={say(TEMPLATE_MESSAGES.empty)}
        />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {listed.map((template) => (
            <li key={template.id}>
              <Card className="flex h-full flex-col" role="article" aria-label={template.title}>
                <CardHeader>
                  <div className="flex items-center gap-2">
                    <Badge tone={template.isGlobal ? 'brand' : 'neutral'}>
                      {template.isGlobal ? t('templates.global') : t('templates.workspace')}
                    </Badge>
                    <span className="text-xs text-slate-600">
                      {template.type === 'loop' ? t('templates.loop') : t('templates.healthCheck')}
                    </span>
                  </div>
                  <CardTitle className="text-base">{template.title}</CardTitle>
                  {template.description && (
                    <CardDescription className="line-clamp-3">{template.description}</CardDescription>
                  )}
                </CardHeader>
                <CardContent className="mt-auto flex flex-wrap gap-2">
                  <Button size="sm" asChild>
                    <Link
                      to={configurePath(template)}
                      aria-label={t('templates.useLabel', { title: template.title })}
                    >
                      {t('templates.use')}
                    </Link>
                  </Button>
                  {template.canChange && (
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={t('templates.editLabel', { title: template.title })}
                      onClick={() => setEditing(template)}
                    >
                      <Pencil aria-hidden="true" />
                      {t('common.edit')}
                    </Button>
                  )}
                  {template.canChange && (
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={t('templates.deleteLabel', { title: template.title })}
                      onClick={() => setDeleting(template)}
                    >
                      <Trash2 aria-hidden="true" />
                      {t('common.delete')}
                    </Button>
                  )}
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {deleting && <DeleteTemplateDialog template={deleting} onClose={() => setDeleting(null)} />}
      {editing && (
        <TemplateTextDialog
          title={t('templates.editLabel', { title: editing.title })}
          submitLabel={t('common.save')}
          initial={{ title: editing.title, description: editing.description ?? '' }}
          onClose={() => setEditing(null)}
          onSave={async (text) => {
            await apiPatch(`/templates/${encodeURIComponent(editing.id)}`, text);
            toast.success(say(TEMPLATE_MESSAGES.updated), { duration: TOAST.save });
            await queryClient.invalidateQueries({ queryKey: ['templates'] });
            await queryClient.invalidateQueries({ queryKey: ['template', editing.id] });
          }}
        />
      )}
    </div>
  );
}

/** Deleting a workspace template (its admins and the member who made it; the server says who may). */
function DeleteTemplateDialog({ template, onClose }: { template: TemplateSummary; onClose: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => apiDelete(`/templates/${encodeURIComponent(template.id)}`),
    onSuccess: () => {
      toast.success(say(TEMPLATE_MESSAGES.deleted), { duration: TOAST.save });
      onClose();
    },
    onError: (error) => toast.error(errorMessage(error, say(TEMPLATE_MESSAGES.deleteFailed))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['templates'] }),
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={t('templates.deleteTitle', { title: template.title })}
        description={
          template.type === 'loop' ? t('templates.deleteLoopHint') : t('templates.deleteHealthCheckHint')
        }
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
            {remove.isPending ? t('templates.deleting') : t('common.delete')}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
