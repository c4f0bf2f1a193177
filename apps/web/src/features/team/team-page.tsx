import { displayName, displayRole, matchesSearch, type Member } from '@pulsecheck/shared/team/schemas';
import { ArrowLeft, Mail, Pencil, Search, Trash2, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { IconLink } from '@/components/ui/icon-link';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { say, t } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useTeam } from './api';
import { MemberAvatar } from './member-avatar';
import { EditMemberDialog, InviteDialog, RemoveMemberDialog } from './member-dialogs';
import { InvitationActions } from './invitation-actions';
import { LoadFailed, StateCard } from '@/components/ui/state-card';

export function StatusBadge({ member }: { member: Member }) {
  if (member.status === 'active') return <Badge tone="green">{t('team.status.active')}</Badge>;
  if (member.invitation?.delivery === 'failed')
    return <Badge tone="red">{t('team.status.emailFailed')}</Badge>;
  if (member.invitation?.expired) return <Badge tone="red">{t('team.status.expired')}</Badge>;
  return <Badge tone="yellow">{t('team.status.pending')}</Badge>;
}

export function NoWorkspace() {
  return <StateCard title={t('team.noWorkspace.title')} message={t('team.noWorkspace.message')} />;
}

/** The title when the team cannot be loaded (the team list and the invitations). */
export const teamLoadFailed = () => t('team.loadFailed');

type Dialogs = { kind: 'edit' | 'remove'; member: Member } | null;

export function TeamManagementPage() {
  const session = useSession();
  const workspaceId = session.data?.activeWorkspaceId ?? null;
  const team = useTeam(workspaceId);
  const [search, setSearch] = useState('');
  const [inviting, setInviting] = useState(false);
  const [dialog, setDialog] = useState<Dialogs>(null);

  const members = team.data?.members.filter((m) => matchesSearch(m, search)) ?? [];
  const pending = team.data?.members.filter((m) => m.status === 'pending').length ?? 0;
  const canManage = team.data?.canManage ?? false;
  const canAppoint = team.data?.canAppointOrganizationAdmins ?? false;
  const me = session.data?.id;

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{t('team.title')}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {team.data
              ? t('team.description', { workspace: team.data.workspace.name })
              : t('team.descriptionNoName')}
          </p>
          <div className="mt-2 flex flex-wrap gap-4 text-sm">
            <IconLink to="/admin/dashboard" icon={ArrowLeft}>
              {t('team.backToDashboard')}
            </IconLink>
            <IconLink to="/admin/team-management/invitations" icon={Mail}>
              {t('team.pendingCount', { count: pending })}
            </IconLink>
          </div>
        </div>
        {canManage && workspaceId && (
          <Button onClick={() => setInviting(true)}>
            <UserPlus aria-hidden="true" />
            {t('team.invite')}
          </Button>
        )}
      </div>

      {!workspaceId ? (
        <NoWorkspace />
      ) : team.isPending ? (
        <Spinner label={t('team.loading')} className="py-12" />
      ) : team.isError ? (
        <LoadFailed
          title={teamLoadFailed()}
          message={team.error.message}
          onRetry={() => void team.refetch()}
        />
      ) : (
        <Card>
          <div className="border-b border-slate-200 p-4">
            <div className="relative max-w-sm">
              <Search
                className="pointer-events-none absolute start-3 top-3 size-4 text-slate-500"
                aria-hidden="true"
              />
              <Input
                type="search"
                aria-label={t('team.search')}
                placeholder={t('team.searchPlaceholder')}
                className="ps-9"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
              />
            </div>
          </div>
          {members.length === 0 ? (
            <p className="p-8 text-center text-sm text-slate-600">
              {search ? t('team.noMatch', { search }) : t('team.empty')}
            </p>
          ) : (
            <table className="w-full text-start text-sm">
              <caption className="sr-only">{t('team.caption')}</caption>
              <thead className="bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-3 sm:px-4">
                    {t('team.column.name')}
                  </th>
                  <th scope="col" className="hidden px-4 py-3 sm:table-cell">
                    {t('team.column.role')}
                  </th>
                  <th scope="col" className="px-2 py-3 sm:px-4">
                    {t('team.column.status')}
                  </th>
                  <th scope="col" className="px-2 py-3 text-end sm:px-4">
                    {t('team.column.actions')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {members.map((member) => (
                  <tr key={member.id} data-testid="member-row">
                    <td className="px-3 py-3 sm:px-4">
                      <div className="flex min-w-0 items-center gap-3">
                        <MemberAvatar
                          name={member.name}
                          url={member.avatarUrl}
                          className="hidden min-[400px]:flex"
                        />
                        <div className="min-w-0">
                          <p className="font-medium break-words text-slate-900">
                            {say(displayName(member.name))}
                            {member.userId === me && (
                              <span className="ms-1 text-slate-600">{t('team.you')}</span>
                            )}
                          </p>
                          <p className="text-xs break-all text-slate-600">{member.email}</p>
                          <p className="text-xs text-slate-600 sm:hidden">{say(displayRole(member.role))}</p>
                          {member.department && <p className="text-xs text-slate-600">{member.department}</p>}
                        </div>
                      </div>
                    </td>
                    <td className="hidden px-4 py-3 sm:table-cell">
                      <span className="text-slate-900">{say(displayRole(member.role))}</span>
                      {member.access === 'admin' && (
                        <Badge tone="brand" className="ms-2">
                          {t('team.admin')}
                        </Badge>
                      )}
                      {member.organizationRole && (
                        <Badge tone="purple" className="ms-2">
                          {member.organizationRole === 'owner'
                            ? t('team.organisationOwner')
                            : t('team.organisationAdmin')}
                        </Badge>
                      )}
                    </td>
                    <td className="px-2 py-3 sm:px-4">
                      <StatusBadge member={member} />
                    </td>
                    <td className="px-2 py-3 text-end sm:px-4">
                      {canManage || (canAppoint && member.status === 'active') ? (
                        <div className="flex justify-end gap-1">
                          {member.status === 'pending' ? (
                            <InvitationActions workspaceId={workspaceId} member={member} compact />
                          ) : (
                            <>
                              <Button
                                variant="ghost"
                                size="icon"
                                aria-label={t('team.editName', { name: say(displayName(member.name)) })}
                                onClick={() => setDialog({ kind: 'edit', member })}
                              >
                                <Pencil aria-hidden="true" />
                              </Button>
                              {canManage && (
                                <Button
                                  variant="ghost"
                                  size="icon"
                                  aria-label={t('team.removeName', { name: say(displayName(member.name)) })}
                                  onClick={() => setDialog({ kind: 'remove', member })}
                                >
                                  <Trash2 aria-hidden="true" />
                                </Button>
                              )}
                            </>
                          )}
                        </div>
                      ) : (
                        <span className="text-xs text-slate-600">—</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
      )}
      {workspaceId && canManage && (
        <InviteDialog workspaceId={workspaceId} open={inviting} onOpenChange={setInviting} />
      )}
      {workspaceId && dialog?.kind === 'edit' && (
        <EditMemberDialog
          workspaceId={workspaceId}
          member={dialog.member}
          canManage={canManage}
          canAppoint={canAppoint}
          onClose={() => setDialog(null)}
        />
      )}
      {workspaceId && dialog?.kind === 'remove' && (
        <RemoveMemberDialog
          workspaceId={workspaceId}
          member={dialog.member}
          onClose={() => setDialog(null)}
        />
      )}
      <p className="sr-only" aria-live="polite">
        {team.data ? t('team.shown', { shown: members.length, total: team.data.members.length }) : ''}
      </p>
    </div>
  );
}
