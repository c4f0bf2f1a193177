import { zodResolver } from '@hookform/resolvers/zod';
import { renameWorkspaceSchema, type Workspace } from '@pulsecheck/shared/workspaces/schemas';
import { WORKSPACE_MESSAGES } from '@pulsecheck/shared/workspaces/messages';
import { Building2, Check, Pencil } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Badge } from '@/components/ui/badge';
import { Button, SubmitButton } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { TOAST, toast } from '@/components/ui/toaster';
import { applyServerErrors, errorMessage } from '@/lib/forms';
import { say, t, tRich } from '@/lib/i18n';
import { useCreateWorkspace, useRenameWorkspace, useSwitchWorkspace, useWorkspaces } from './api';
import { LoadFailed, StateCard } from '@/components/ui/state-card';

/** What a failure says when the server gives no reason. */
const fallback = () => t('workspaces.failed');

/**
 * The name form of create and rename: the shared schema's rules, and every failure shown under the field.
 * `save` resolves once the server has stored the name; the field then holds `after` (the saved name by default).
 */
function useNameForm(
  name: string,
  save: (name: string) => Promise<unknown>,
  done: () => void,
  after?: string,
) {
  const form = useForm<{ name: string }>({
    resolver: zodResolver(renameWorkspaceSchema),
    defaultValues: { name },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      await save(values.name);
      form.reset({ name: after ?? values.name });
      done();
    } catch (error) {
      const message = applyServerErrors(error, form, fallback());
      if (message) form.setError('name', { message });
    }
  });
  return { form, submit };
}

/** A field's message: a shared rule's key in the app's language, or the server's text as it came. */
const sayError = (message: string | undefined) => (message === undefined ? undefined : say(message));

export function WorkspacesPage() {
  const workspaces = useWorkspaces();
  if (workspaces.isPending) return <Spinner label={t('workspaces.loadingList')} className="py-12" />;
  if (workspaces.isError) {
    return (
      <LoadFailed
        title={t('workspaces.loadFailed')}
        message={workspaces.error.message}
        onRetry={() => void workspaces.refetch()}
      />
    );
  }
  const { workspaces: list, activeWorkspaceId } = workspaces.data;
  const active = list.find((w) => w.id === activeWorkspaceId);
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('workspaces.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">
          {active
            ? tRich('workspaces.active', {
                name: active.name,
                strong: (chunks) => <strong data-testid="workspaces-active">{chunks}</strong>,
              })
            : say(WORKSPACE_MESSAGES.noWorkspaceText)}
        </p>
      </div>
      {list.length === 0 ? (
        <StateCard
          icon={<Building2 className="mx-auto mb-3 size-10 text-slate-400" aria-hidden="true" />}
          message={say(WORKSPACE_MESSAGES.noWorkspace)}
        />
      ) : (
        <ul className="flex flex-col gap-3">
          {list.map((workspace) => (
            <li key={workspace.id}>
              <WorkspaceRow workspace={workspace} active={workspace.id === activeWorkspaceId} />
            </li>
          ))}
        </ul>
      )}
      {active?.access === 'admin' && <CreateWorkspace organizationName={active.organizationName} />}
    </div>
  );
}

function WorkspaceRow({ workspace, active }: { workspace: Workspace; active: boolean }) {
  const [editing, setEditing] = useState(false);
  const rename = useRenameWorkspace();
  const switchTo = useSwitchWorkspace();
  const { form, submit } = useNameForm(
    workspace.name,
    (name) => rename.mutateAsync({ id: workspace.id, name }),
    () => {
      setEditing(false);
      toast.success(say(WORKSPACE_MESSAGES.renamed), { duration: TOAST.save });
    },
  );

  return (
    <Card>
      <CardContent className="flex flex-col gap-3 pt-6 sm:flex-row sm:items-center sm:justify-between">
        {editing ? (
          <form onSubmit={submit} className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-end">
            <div className="flex-1">
              <FormField
                label={t('workspaces.newName', { name: workspace.name })}
                error={sayError(form.formState.errors.name?.message)}
              >
                <Input maxLength={120} autoFocus {...form.register('name')} />
              </FormField>
            </div>
            <div className="flex gap-2">
              <SubmitButton pending={form.formState.isSubmitting} busy={t('workspaces.saving')}>
                {t('common.save')}
              </SubmitButton>
              <Button variant="secondary" onClick={() => setEditing(false)}>
                {t('common.cancel')}
              </Button>
            </div>
          </form>
        ) : (
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
              <span className="truncate">{workspace.name}</span>
              {active && <Badge tone="green">{t('workspaces.activeBadge')}</Badge>}
              {workspace.isDefault && <Badge>{t('workspaces.default')}</Badge>}
              <Badge tone="brand">
                {workspace.access === 'admin' ? t('workspaces.admin') : t('workspaces.member')}
              </Badge>
            </p>
            <p className="text-sm text-slate-600">{workspace.organizationName}</p>
          </div>
        )}
        {!editing && (
          <div className="flex gap-2">
            {workspace.access === 'admin' && (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => setEditing(true)}
                aria-label={t('workspaces.renameLabel', { name: workspace.name })}
              >
                <Pencil aria-hidden="true" />
                {t('workspaces.rename')}
              </Button>
            )}
            {!active && (
              <Button
                size="sm"
                disabled={switchTo.isPending}
                aria-label={t('workspaces.switchLabel', { name: workspace.name })}
                onClick={() =>
                  switchTo.mutate(workspace.id, {
                    onSuccess: () =>
                      toast.success(say(WORKSPACE_MESSAGES.switched), { duration: TOAST.save }),
                    onError: (e) => toast.error(errorMessage(e, fallback())),
                  })
                }
              >
                <Check aria-hidden="true" />
                {t('workspaces.switch')}
              </Button>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function CreateWorkspace({ organizationName }: { organizationName: string }) {
  const create = useCreateWorkspace();
  const { form, submit } = useNameForm(
    '',
    create.mutateAsync,
    () => toast.success(say(WORKSPACE_MESSAGES.created), { duration: TOAST.save }),
    '',
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('workspaces.createTitle')}</CardTitle>
        <p className="text-sm text-slate-600">
          {t('workspaces.createHint', { organization: organizationName })}
        </p>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex-1">
            <FormField label={t('workspaces.name')} error={sayError(form.formState.errors.name?.message)}>
              <Input maxLength={120} {...form.register('name')} />
            </FormField>
          </div>
          <SubmitButton pending={form.formState.isSubmitting} busy={t('workspaces.creating')}>
            {t('workspaces.create')}
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}
