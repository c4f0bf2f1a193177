import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import { Copy, Mail, MessageSquare } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { TOAST, toast } from '@/components/ui/toaster';

export async function copyToClipboard(text: string, success: string = HEALTH_CHECK_MESSAGES.linkCopied) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(success, { duration: TOAST.copy });
  } catch {
    toast.error('Could not copy. Select the link and copy it by hand.');
  }
}

/** 'Share Health Check': the join link with Copy, Email (mailto), Slack and Done. */
export function ShareDialog({
  open,
  onOpenChange,
  title,
  joinUrl,
  onDone,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  joinUrl: string;
  onDone?: () => void;
}) {
  const body = `You're invited to take part in "${title}". Join here: ${joinUrl}`;
  const mailto = `mailto:?subject=${encodeURIComponent(HEALTH_CHECK_MESSAGES.invitationSubject)}&body=${encodeURIComponent(body)}`;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Share Health Check" description="Send this link to your team so they can join.">
        <div className="flex flex-col gap-4">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="share-join-link">Join link</Label>
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
                Copy
              </Button>
            </div>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" asChild>
              <a href={mailto}>
                <Mail aria-hidden="true" />
                Email
              </a>
            </Button>
            <Button
              variant="secondary"
              onClick={() =>
                void copyToClipboard(
                  `:wave: Please take part in *${title}*: ${joinUrl}`,
                  'Slack message copied: paste it into your channel',
                )
              }
            >
              <MessageSquare aria-hidden="true" />
              Slack
            </Button>
          </div>
          <div className="flex justify-end">
            <Button
              onClick={() => {
                onOpenChange(false);
                onDone?.();
              }}
            >
              Done
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
