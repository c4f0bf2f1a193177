import { DASHBOARD_MESSAGES } from '@pulsecheck/shared/dashboard/rules';
import { Copy } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { say, t } from '@/lib/i18n';

/**
 * The dashboard's 'Share' dialog: the link to the view as shown, and the join links of the active items. It
 * loads when first opened (the dialog's code is not needed to paint the dashboard).
 */
export function ShareViewDialog({
  shareUrl,
  copied,
  joinable,
  onCopy,
  onCopyView,
  onClose,
}: {
  shareUrl: string;
  /** Whether copying the view's link worked; null while it is being copied. */
  copied: 'copied' | 'failed' | null;
  joinable: { id: string; title: string; joinUrl: string }[];
  onCopy: (url: string) => void;
  onCopyView: () => void;
  onClose: () => void;
}) {
  const linkField = useRef<HTMLInputElement>(null);
  // Where the browser has no clipboard (a plain-http address, a refusal), the link is selected to copy by hand.
  useEffect(() => {
    if (copied !== 'failed') return;
    linkField.current?.focus();
    linkField.current?.select();
  }, [copied]);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={t('dashboard.shareTitle')} description={t('dashboard.shareHint')}>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="dashboard-view-link">{t('dashboard.viewLink')}</Label>
          <div className="flex gap-2">
            <input
              id="dashboard-view-link"
              readOnly
              value={shareUrl}
              ref={linkField}
              onFocus={(event) => event.currentTarget.select()}
              className="h-9 min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-2 text-xs"
            />
            <Button
              size="sm"
              variant="secondary"
              aria-label={t('dashboard.copyViewLink')}
              onClick={onCopyView}
            >
              <Copy aria-hidden="true" />
              {t('common.copy')}
            </Button>
          </div>
          <p role="status" className="min-h-5 text-sm text-slate-600">
            {copied === 'copied' && t('dashboard.copied')}
            {copied === 'failed' && t('dashboard.copyRefused')}
          </p>
        </div>
        <h3 className="mt-4 mb-2 text-sm font-semibold text-slate-900">{t('dashboard.joinLinks')}</h3>
        {joinable.length === 0 ? (
          <p className="text-sm text-slate-600">{say(DASHBOARD_MESSAGES.noActive)}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {joinable.map((item) => (
              <li key={item.id} className="flex flex-col gap-1">
                <span className="text-sm font-medium">{item.title}</span>
                <div className="flex gap-2">
                  <input
                    readOnly
                    value={item.joinUrl}
                    aria-label={t('dashboard.joinLinkFor', { title: item.title })}
                    className="h-9 min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-2 text-xs"
                  />
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={t('dashboard.copyJoinLinkFor', { title: item.title })}
                    onClick={() => onCopy(item.joinUrl)}
                  >
                    <Copy aria-hidden="true" />
                    {t('common.copy')}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
