import { ArrowLeft } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { IconLink } from '@/components/ui/icon-link';
import { Spinner } from '@/components/ui/spinner';
import { formatDate } from '@/lib/dates';
import { useSession } from '@/lib/session';
import { useTeam } from './api';
import { InvitationActions, invitationSummary } from './invitation-actions';
import { NoWorkspace, StatusBadge, TEAM_LOAD_FAILED } from './team-page';
import { LoadFailed, StateCard } from '@/components/ui/state-card';

export function InvitationsPage() {
  const session = useSession();
  const workspaceId = session.data?.activeWorkspaceId ?? null;
  const team = useTeam(workspaceId);
  const pending = team.data?.members.filter((m) => m.status === 'pending') ?? [];

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Invitations</h1>
        <p className="mt-1 text-sm text-slate-600">
          Invitations waiting to be accepted. Links expire after 7 days.
        </p>
        <IconLink to="/admin/team-management" icon={ArrowLeft} className="mt-2">
          Back to Team Management
        </IconLink>
      </div>
      {!workspaceId ? (
        <NoWorkspace />
      ) : team.isPending ? (
        <Spinner label="Loading invitations..." className="py-12" />
      ) : team.isError ? (
        <LoadFailed
          title={TEAM_LOAD_FAILED}
          message={team.error.message}
          onRetry={() => void team.refetch()}
        />
      ) : pending.length === 0 ? (
        <StateCard title="No pending invitations" message="Everyone you invited has joined." />
      ) : (
        <ul className="space-y-3" aria-label="Pending invitations">
          {pending.map((member) => (
            <li key={member.id}>
              <Card
                className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
                data-testid="invitation"
              >
                <div className="min-w-0 space-y-1">
                  <p className="font-medium break-all text-slate-900">{member.email}</p>
                  <p className="text-sm text-slate-600">{invitationSummary(member)}</p>
                  {member.invitation && (
                    <p className="text-xs text-slate-600">
                      Sent {formatDate(member.invitation.sentAt)} ·{' '}
                      {member.invitation.expired ? 'Expired' : 'Expires'}{' '}
                      {formatDate(member.invitation.expiresAt)}
                    </p>
                  )}
                  <div className="flex flex-wrap gap-2">
                    <StatusBadge member={member} />
                    {member.invitation?.delivery === 'pending' && <Badge tone="neutral">Email sending</Badge>}
                    {member.invitation?.delivery === 'sent' && <Badge tone="blue">Email sent</Badge>}
                  </div>
                  {member.invitation?.deliveryError && member.invitation.delivery !== 'sent' && (
                    <p role="alert" className="text-xs text-red-800">
                      {member.invitation.delivery === 'failed'
                        ? 'Delivery failed: '
                        : 'Delivery is being retried: '}
                      {member.invitation.deliveryError}
                    </p>
                  )}
                </div>
                {team.data.canManage && <InvitationActions workspaceId={workspaceId} member={member} />}
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
