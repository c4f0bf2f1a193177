import { TEAM_MESSAGES, type Member } from '@pulsecheck/shared/team/schemas';
import { toast, TOAST } from '@/components/ui/toaster';
import { say, t } from '@/lib/i18n';

/**
 * The toast after an invitation is sent or sent again: what the server recorded of its e-mail. A failure known
 * at once (e-mail switched off on the server) is said, never "sent".
 */
export function invitationToast(member: Member, sent: string) {
  if (member.invitation?.delivery === 'failed') {
    const reason = member.invitation.deliveryError ?? say(TEAM_MESSAGES.inviteFailed);
    toast.error(
      t('team.notEmailed', {
        message: t(TEAM_MESSAGES.invitationNotEmailed, { email: member.email }),
        reason,
      }),
    );
    return;
  }
  toast.success(sent, { duration: TOAST.save });
}
