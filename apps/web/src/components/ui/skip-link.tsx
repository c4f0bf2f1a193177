import { t } from '@/lib/i18n';

/** The first stop for keyboard users: jumps past the header and navigation to the screen's main landmark. */
export function SkipLink({ to }: { to: string }) {
  return (
    <a
      href={`#${to}`}
      className="sr-only focus:not-sr-only focus:absolute focus:start-2 focus:top-2 focus:z-[60] focus:rounded focus:bg-white focus:px-3 focus:py-2"
    >
      {t('ui.skipToContent')}
    </a>
  );
}
