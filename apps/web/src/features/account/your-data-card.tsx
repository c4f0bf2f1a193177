import { ACCOUNT_MESSAGES } from '@pulsecheck/shared/account/schemas';
import { Download, Loader2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { errorMessage } from '@/lib/forms';
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
      setError(reason ? `${ACCOUNT_MESSAGES.downloadFailed}: ${reason}` : ACCOUNT_MESSAGES.downloadFailed);
    } finally {
      setPending(false);
    }
  };
  return (
    <SectionCard
      title="Your data"
      descriptionId={descriptionId}
      description="A JSON file of everything Pulsecheck stores about you: your profile, memberships, health checks, attributed comments, action items, notifications and settings. Answers you gave anonymously are not in it: they cannot be linked to you."
      contentClassName="space-y-3"
    >
      <Button
        variant="secondary"
        onClick={() => void download()}
        disabled={pending}
        aria-describedby={descriptionId}
      >
        {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
        {pending ? 'Preparing your data...' : ACCOUNT_MESSAGES.downloadData}
      </Button>
      <p role="alert" className="text-sm text-red-700">
        {error}
      </p>
    </SectionCard>
  );
}
