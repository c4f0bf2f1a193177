import type { Language } from '@pulsecheck/shared/i18n/languages';
import type { ReactNode } from 'react';
import { languageName, t } from '@/lib/i18n';

/**
 * A question's words as the server chose them for this reader (decision 0027, 'Content in several languages'):
 * in the reader's language, or, without a translation into it, in the loop's language, marked with it (`lang`, so
 * screen readers pronounce it) and followed by a short note saying so.
 */
export function ShownIn({ language, children }: { language: Language | null; children: ReactNode }) {
  if (!language) return <>{children}</>;
  return (
    <>
      <span lang={language}>{children}</span>{' '}
      <span className="block text-xs font-normal text-slate-600">
        {t('loops.shownInDefaultLanguage', { language: languageName(language) })}
      </span>
    </>
  );
}
