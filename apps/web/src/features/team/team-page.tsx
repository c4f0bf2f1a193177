import { displayName, displayRole, matchesSearch, type Member } from '@pulsecheck/shared/team/schemas';
import { ArrowLeft, Mail, Pencil, Search, Trash2, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { IconLink } from '@/components/ui/icon-link';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/session';
import { useTeam } from './api';
import { MemberAvatar } from './member-avatar';
import { EditMemberDialog, InviteDialog, RemoveMemberDialog } from './member-dialogs';
import { InvitationActions } from './invitation-actions';
import { LoadFailed, StateCard } from '@/components/ui/state-card';

export function StatusBadge({ member }: { member: Member }) {
  if (member.status === 'active') return <Badge tone="green">Active</Badge>;
  if (member.invitation?.delivery === 'failed') return <Badge tone="red">Email failed</Badge>;
  if (member.invitation?.expired) return <Badge tone="red">Expired</Badge>;
  return <Badge tone="yellow">Pending</Badge>;
}

export function NoWorkspace() {
  return (
    <StateCard
      title="No Workspace Found"
      message="You are not part of a workspace yet. Please contact your administrator."
    />
  );
}

export const TEAM_LOAD_FAILED = 'Failed to load team members';

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
          <h1 className="text-2xl font-bold text-slate-900">Team Management</h1>
          <p className="mt-1 text-sm text-slate-600">
            {team.data ? `The people of ${team.data.workspace.name}.` : 'The people of your workspace.'}
          </p>
          <div className="mt-2 flex flex-wrap gap-4 text-sm">
            <IconLink to="/admin/dashboard" icon={ArrowLeft}>
              Back to Dashboard
            </IconLink>
            <IconLink to="/admin/team-management/invitations" icon={Mail}>
              Pending invitations ({pending})
            </IconLink>
          </div>
        </div>
        {canManage && workspaceId && (
          <Button onClick={() => setInviting(true)}>
            <UserPlus aria-hidden="true" />
            Invite Team Member
          </Button>
        )}
      </div>

      {!workspaceId ? (
        <NoWorkspace />
      ) : team.isPending ? (
        <Spinner label="Loading team members..." className="py-12" />
      ) : team.isError ? (
        <LoadFailed
          title={TEAM_LOAD_FAILED}
          message={team.error.message}
          onRetry={() => void team.refetch()}
        />
      ) : (
        <Card>
          <div className="border-b border-slate-200 p-4">
            <div className="relative max-w-sm">
              <Search
                className="pointer-events-none absolute top-3 left-3 size-4 text-slate-500"
                aria-hidden="true"
              />
              <Input
                type="search"
                aria-label="Search members"
                placeholder="Search by name, email, role or department"
                className="pl-9"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
              />
            </div>
          </div>
          {members.length === 0 ? (
            <p className="p-8 text-center text-sm text-slate-600">
              {search ? `No members match "${search}"` : 'No team members yet. Invite your first teammate.'}
            </p>
          ) : (
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Team members</caption>
              <thead className="bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-3 sm:px-4">
                    Name
                  </th>
                  <th scope="col" className="hidden px-4 py-3 sm:table-cell">
                    Role
                  </th>
                  <th scope="col" className="px-2 py-3 sm:px-4">
                    Status
                  </th>
                  <th scope="col" className="px-2 py-3 text-right sm:px-4">
                    Actions
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
                            {displayName(member.name)}
                            {member.userId === me && <span className="ml-1 text-slate-600">(you)</span>}
                          </p>
                          <p className="text-xs break-all text-slate-600">{member.email}</p>
                          <p className="text-xs text-slate-600 sm:hidden">{displayRole(member.role)}</p>
                          {member.department && <p className="text-xs text-slate-600">{member.department}</p>}
                        </div>
                      </div>
                    </td>
                    <td className="hidden px-4 py-3 sm:table-cell">
                      <span className="text-slate-900">{displayRole(member.role)}</span>
                      {member.access === 'admin' && (
                        <Badge tone="brand" className="ml-2">
                          Admin
                        </Badge>
                      )}
                      {member.organizationRole && (
                        <Badge tone="purple" className="ml-2">
                          {member.organizationRole === 'owner' ? 'Organisation owner' : 'Organisation admin'}
                        </Badge>
                      )}
                    </td>
                    <td className="px-2 py-3 sm:px-4">
                      <StatusBadge member={member} />
                    </td>
                    <td className="px-2 py-3 text-right sm:px-4">
                      {canManage || (canAppoint && member.status === 'active') ? (
                        <div className="flex justify-end gap-1">
                          {member.status === 'pending' ? (
                            <InvitationActions workspaceId={workspaceId} member={member} compact />
                          ) : (
                            <>
                              <Button
                                variant="ghost"
                                size="icon"
                                aria-label={`Edit ${displayName(member.name)}`}
                                onClick={() => setDialog({ kind: 'edit', member })}
                              >
                                <Pencil aria-hidden="true" />
                              </Button>
                              {canManage && (
                                <Button
                                  variant="ghost"
                                  size="icon"
                                  aria-label={`Remove ${displayName(member.name)}`}
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
        {team.data ? `${members.length} of ${team.data.members.length} members shown` : ''}
      </p>
    </div>
  );
}
