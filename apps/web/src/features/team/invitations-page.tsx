import { ArrowLeft } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { IconLink } from '@/components/ui/icon-link';
import { Spinner } from '@/components/ui/spinner';
import { formatDate } from '@/lib/dates';
import { t } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useTeam } from './api';
import { InvitationActions, invitationSummary } from './invitation-actions';
import { NoWorkspace, StatusBadge, teamLoadFailed } from './team-page';
import { LoadFailed, StateCard } from '@/components/ui/state-card';

export function InvitationsPage() {
  const session = useSession();
  const workspaceId = session.data?.activeWorkspaceId ?? null;
  const team = useTeam(workspaceId);
  const pending = team.data?.members.filter((m) => m.status === 'pending') ?? [];

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">{t('team.invitations.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('team.invitations.description')}</p>
        <IconLink to="/admin/team-management" icon={ArrowLeft} className="mt-2">
          {t('team.invitations.back')}
        </IconLink>
      </div>
      {!workspaceId ? (
        <NoWorkspace />
      ) : team.isPending ? (
        <Spinner label={t('team.invitations.loading')} className="py-12" />
      ) : team.isError ? (
        <LoadFailed
          title={teamLoadFailed()}
          message={team.error.message}
          onRetry={() => void team.refetch()}
        />
      ) : pending.length === 0 ? (
        <StateCard title={t('team.invitations.emptyTitle')} message={t('team.invitations.emptyMessage')} />
      ) : (
        <ul className="space-y-3" aria-label={t('team.invitations.list')}>
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
                      {t('team.invitations.dates', {
                        sent: formatDate(member.invitation.sentAt),
                        expired: member.invitation.expired ? 'yes' : 'no',
                        expires: formatDate(member.invitation.expiresAt),
                      })}
                    </p>
                  )}
                  <div className="flex flex-wrap gap-2">
                    <StatusBadge member={member} />
                    {member.invitation?.delivery === 'pending' && (
                      <Badge tone="neutral">{t('team.invitations.emailSending')}</Badge>
                    )}
                    {member.invitation?.delivery === 'sent' && (
                      <Badge tone="blue">{t('team.invitations.emailSent')}</Badge>
                    )}
                  </div>
                  {member.invitation?.deliveryError && member.invitation.delivery !== 'sent' && (
                    <p role="alert" className="text-xs text-red-800">
                      {member.invitation.delivery === 'failed'
                        ? t('team.invitations.deliveryFailed', { error: member.invitation.deliveryError })
                        : t('team.invitations.deliveryRetried', { error: member.invitation.deliveryError })}
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
