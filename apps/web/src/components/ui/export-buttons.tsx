import { Download, Printer } from 'lucide-react';
import { Button } from './button';
import { t } from '@/lib/i18n';

/** 'Export CSV' (a download of `csvHref`) and 'Print / PDF' (the browser's print, with PrintStyle's layout). */
export function ExportButtons({ csvHref }: { csvHref: string }) {
  return (
    <>
      <Button variant="secondary" asChild>
        <a href={csvHref} download>
          <Download aria-hidden="true" />
          {t('ui.exportCsv')}
        </a>
      </Button>
      <Button variant="secondary" onClick={() => window.print()}>
        <Printer aria-hidden="true" />
        {t('ui.printPdf')}
      </Button>
    </>
  );
}
