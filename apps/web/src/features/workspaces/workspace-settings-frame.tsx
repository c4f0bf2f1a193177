import type { Workspace } from '@pulsecheck/shared/workspaces/schemas';
import { WORKSPACE_SETTINGS, type WorkspaceSettingsTab } from '@pulsecheck/shared/workspaces/settings';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { LoadFailed, StateCard } from '@/components/ui/state-card';
import { cn } from '@/lib/cn';
import { say, t, tRich } from '@/lib/i18n';
import { useWorkspaces } from './api';

/**
 * 'Workspace settings' for the active workspace: its heading, the tabs (one page each) and the tab's content for
 * the workspace's admins; anyone else is told who may (the server refuses them whatever they send).
 */
export function WorkspaceSettingsFrame({
  tab,
  children,
}: {
  tab: WorkspaceSettingsTab;
  children: (workspace: Workspace) => ReactNode;
}) {
  const workspaces = useWorkspaces();
  if (workspaces.isPending) return <Spinner label={t('workspaces.loading')} className="py-16" />;
  if (workspaces.isError)
    return (
      <LoadFailed
        title={t('workspaces.settingsLoadFailed')}
        message={workspaces.error.message}
        onRetry={() => void workspaces.refetch()}
        headingLevel={1}
      />
    );
  const active = workspaces.data.workspaces.find((w) => w.id === workspaces.data.activeWorkspaceId);
  if (active?.access !== 'admin')
    return (
      <StateCard
        headingLevel={1}
        title={say(WORKSPACE_SETTINGS.title)}
        message={say(WORKSPACE_SETTINGS.adminsOnly)}
      />
    );
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{say(WORKSPACE_SETTINGS.title)}</h1>
        <p className="mt-1 text-sm text-slate-600">
          {tRich('workspaces.settingsOf', {
            name: active.name,
            strong: (chunks) => <strong>{chunks}</strong>,
          })}
        </p>
      </div>
      <nav aria-label={say(WORKSPACE_SETTINGS.title)}>
        <ul className="flex flex-wrap gap-1 border-b border-slate-200">
          {WORKSPACE_SETTINGS.tabs.map((entry) => (
            <li key={entry.key}>
              <Link
                to={entry.path}
                aria-current={entry.key === tab ? 'page' : undefined}
                className={cn(
                  '-mb-px inline-flex min-h-11 items-center border-b-2 px-3 text-sm font-medium',
                  entry.key === tab
                    ? 'border-brand-600 text-brand-700'
                    : 'border-transparent text-slate-700 hover:text-slate-900',
                )}
              >
                {say(entry.label)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {children(active)}
    </div>
  );
}
