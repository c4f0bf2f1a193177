import { displayRole, TEAM_MESSAGES, type Member } from '@pulsecheck/shared/team/schemas';
import { RotateCw, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast, TOAST } from '@/components/ui/toaster';
import { say, t } from '@/lib/i18n';
import { useResend, useRevoke } from './api';
import { invitationToast } from './invitation-toast';

/** Resend (a new link, seven more days) and Revoke for one pending invitation. */
export function InvitationActions({
  workspaceId,
  member,
  compact = false,
}: {
  workspaceId: string;
  member: Member;
  compact?: boolean;
}) {
  const resend = useResend(workspaceId);
  const revoke = useRevoke(workspaceId);
  const run = async (action: 'resend' | 'revoke') => {
    try {
      if (action === 'resend') {
        const { member: resent } = await resend.mutateAsync(member.id);
        invitationToast(resent, t('team.invitationResentTo', { email: member.email }));
      } else {
        await revoke.mutateAsync(member.id);
        toast.success(say(TEAM_MESSAGES.invitationRevoked), { duration: TOAST.save });
      }
    } catch (error) {
      toast.error(error instanceof Error ? error.message : say(TEAM_MESSAGES.inviteFailed));
    }
  };
  const busy = resend.isPending || revoke.isPending;
  return (
    <div className="flex justify-end gap-1">
      <Button
        variant={compact ? 'ghost' : 'secondary'}
        size={compact ? 'icon' : 'sm'}
        aria-label={compact ? t('team.resendTo', { email: member.email }) : undefined}
        disabled={busy}
        onClick={() => void run('resend')}
      >
        <RotateCw aria-hidden="true" />
        {!compact && (resend.isPending ? t('team.sending') : t('team.resend'))}
      </Button>
      <Button
        variant={compact ? 'ghost' : 'secondary'}
        size={compact ? 'icon' : 'sm'}
        aria-label={compact ? t('team.revokeTo', { email: member.email }) : undefined}
        disabled={busy}
        onClick={() => void run('revoke')}
      >
        <X aria-hidden="true" />
        {!compact && t('team.revoke')}
      </Button>
    </div>
  );
}

export const invitationSummary = (member: Member) =>
  t('team.invitationSummary', {
    role: say(displayRole(member.role)),
    admin: member.access === 'admin' ? 'yes' : 'no',
    hasDepartment: member.department ? 'yes' : 'no',
    department: member.department ?? '',
  });
