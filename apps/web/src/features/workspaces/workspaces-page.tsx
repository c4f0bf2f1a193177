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
import { useCreateWorkspace, useRenameWorkspace, useSwitchWorkspace, useWorkspaces } from './api';
import { LoadFailed, StateCard } from '@/components/ui/state-card';

const FALLBACK = 'Something went wrong';

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
      const message = applyServerErrors(error, form, FALLBACK);
      if (message) form.setError('name', { message });
    }
  });
  return { form, submit };
}

export function WorkspacesPage() {
  const workspaces = useWorkspaces();
  if (workspaces.isPending) return <Spinner label="Loading workspaces..." className="py-12" />;
  if (workspaces.isError) {
    return (
      <LoadFailed
        title="Failed to load workspaces"
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
        <h1 className="text-2xl font-semibold text-slate-900">Workspaces</h1>
        <p className="mt-1 text-sm text-slate-600">
          {active ? (
            <>
              Active workspace: <strong data-testid="workspaces-active">{active.name}</strong>
            </>
          ) : (
            WORKSPACE_MESSAGES.noWorkspaceText
          )}
        </p>
      </div>
      {list.length === 0 ? (
        <StateCard
          icon={<Building2 className="mx-auto mb-3 size-10 text-slate-400" aria-hidden="true" />}
          message={WORKSPACE_MESSAGES.noWorkspace}
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
      toast.success(WORKSPACE_MESSAGES.renamed, { duration: TOAST.save });
    },
  );

  return (
    <Card>
      <CardContent className="flex flex-col gap-3 pt-6 sm:flex-row sm:items-center sm:justify-between">
        {editing ? (
          <form onSubmit={submit} className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-end">
            <div className="flex-1">
              <FormField label={`New name for ${workspace.name}`} error={form.formState.errors.name?.message}>
                <Input maxLength={120} autoFocus {...form.register('name')} />
              </FormField>
            </div>
            <div className="flex gap-2">
              <SubmitButton pending={form.formState.isSubmitting} busy="Saving...">
                Save
              </SubmitButton>
              <Button variant="secondary" onClick={() => setEditing(false)}>
                Cancel
              </Button>
            </div>
          </form>
        ) : (
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
              <span className="truncate">{workspace.name}</span>
              {active && <Badge tone="green">Active</Badge>}
              {workspace.isDefault && <Badge>Default</Badge>}
              <Badge tone="brand">{workspace.access === 'admin' ? 'Admin' : 'Member'}</Badge>
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
                aria-label={`Rename ${workspace.name}`}
              >
                <Pencil aria-hidden="true" />
                Rename
              </Button>
            )}
            {!active && (
              <Button
                size="sm"
                disabled={switchTo.isPending}
                aria-label={`Switch to ${workspace.name}`}
                onClick={() =>
                  switchTo.mutate(workspace.id, {
                    onSuccess: () => toast.success(WORKSPACE_MESSAGES.switched, { duration: TOAST.save }),
                    onError: (e) => toast.error(errorMessage(e, FALLBACK)),
                  })
                }
              >
                <Check aria-hidden="true" />
                Switch
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
    () => toast.success(WORKSPACE_MESSAGES.created, { duration: TOAST.save }),
    '',
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Create a workspace</CardTitle>
        <p className="text-sm text-slate-600">In {organizationName}. You become its admin.</p>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex-1">
            <FormField label="Workspace name" error={form.formState.errors.name?.message}>
              <Input maxLength={120} {...form.register('name')} />
            </FormField>
          </div>
          <SubmitButton pending={form.formState.isSubmitting} busy="Creating...">
            Create Workspace
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}
