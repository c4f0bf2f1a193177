import { ACCOUNT_MESSAGES } from '@pulsecheck/shared/account/schemas';
import { Download, Loader2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { errorMessage } from '@/lib/forms';
import { say, t } from '@/lib/i18n';
import { downloadMyData } from './api';

/** "Download my data": the export as a file, through fetch so the button can say it is busy or that it failed. */
export function YourDataCard() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState('');
  const descriptionId = useId();
  const download = async () => {
    setPending(true);
    setError('');
    try {
      const { blob, fileName } = await downloadMyData();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (failure) {
      const reason = errorMessage(failure, '');
      const failed = say(ACCOUNT_MESSAGES.downloadFailed);
      setError(reason ? t('account.downloadFailedBecause', { failed, reason }) : failed);
    } finally {
      setPending(false);
    }
  };
  return (
    <SectionCard
      title={t('account.yourDataTitle')}
      descriptionId={descriptionId}
      description={t('account.yourDataDescription')}
      contentClassName="space-y-3"
    >
      <Button
        variant="secondary"
        onClick={() => void download()}
        disabled={pending}
        aria-describedby={descriptionId}
      >
        {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
        {pending ? t('account.preparingData') : say(ACCOUNT_MESSAGES.downloadData)}
      </Button>
      <p role="alert" className="text-sm text-red-700">
        {error}
      </p>
    </SectionCard>
  );
}
