import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import { Copy, Mail, MessageSquare } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { TOAST, toast } from '@/components/ui/toaster';
import { say, t } from '@/lib/i18n';
import { usePostToSlack, useSlackShare } from './api';

export async function copyToClipboard(text: string, success: string = HEALTH_CHECK_MESSAGES.linkCopied) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(say(success), { duration: TOAST.copy });
  } catch {
    toast.error(t('healthChecks.copyFailed'));
  }
}

/**
 * 'Share Health Check': the join link with Copy, Email (mailto), Slack and Done. 'Slack' posts the invitation to
 * the person's own Slack channel (their notification settings) when it is connected, and copies it otherwise.
 */
export function ShareDialog({
  open,
  onOpenChange,
  healthCheckId,
  title,
  joinUrl,
  onDone,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  healthCheckId: string;
  title: string;
  joinUrl: string;
  onDone?: () => void;
}) {
  const slack = useSlackShare(healthCheckId, open);
  const post = usePostToSlack(healthCheckId);
  const connected = slack.data?.connected === true;
  const shareOnSlack = () => {
    if (!connected) {
      void copyToClipboard(
        t(HEALTH_CHECK_MESSAGES.slackInvitation, { title, joinUrl }),
        HEALTH_CHECK_MESSAGES.slackCopied,
      );
      return;
    }
    post.mutate(undefined, {
      onSuccess: (posted) =>
        toast.success(
          posted.channel
            ? t(HEALTH_CHECK_MESSAGES.slackPosted, { channel: posted.channel })
            : say(HEALTH_CHECK_MESSAGES.slackPostedNoChannel),
        ),
      onError: (error) => toast.error(error.message),
    });
  };
  const body = t('healthChecks.invitationBody', { title, url: joinUrl });
  const mailto = `mailto:?subject=${encodeURIComponent(say(HEALTH_CHECK_MESSAGES.invitationSubject))}&body=${encodeURIComponent(body)}`;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={t('healthChecks.share')} description={t('healthChecks.shareHint')}>
        <div className="flex flex-col gap-4">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="share-join-link">{t('healthChecks.joinLink')}</Label>
            <div className="flex gap-2">
              <input
                id="share-join-link"
                readOnly
                value={joinUrl}
                onFocus={(event) => event.currentTarget.select()}
                className="h-10 min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 text-sm"
              />
              <Button variant="secondary" onClick={() => void copyToClipboard(joinUrl)}>
                <Copy aria-hidden="true" />
                {t('common.copy')}
              </Button>
            </div>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" asChild>
              <a href={mailto}>
                <Mail aria-hidden="true" />
                {t('healthChecks.email')}
              </a>
            </Button>
            <Button variant="secondary" onClick={shareOnSlack} disabled={slack.isPending || post.isPending}>
              <MessageSquare aria-hidden="true" />
              {t('healthChecks.shareSlack')}
            </Button>
          </div>
          {slack.data && !connected && (
            <p className="text-sm text-slate-600">
              {say(HEALTH_CHECK_MESSAGES.slackNotConnected)}{' '}
              <Link
                to="/admin/account-settings/notifications"
                className="font-medium text-brand-700 underline underline-offset-2"
              >
                {t('healthChecks.openNotificationSettings')}
              </Link>
            </p>
          )}
          <div className="flex justify-end">
            <Button
              onClick={() => {
                onOpenChange(false);
                onDone?.();
              }}
            >
              {t('common.done')}
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
