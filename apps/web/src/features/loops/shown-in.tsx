import type { Language } from '@pulsecheck/shared/i18n/languages';
import type { ReactNode } from 'react';
import { languageName, t } from '@/lib/i18n';

/**
 * A question's words as the server chose them for this reader (decision 0027, 'Content in several languages'):
 * in the reader's language, or, without a translation into it, in the loop's language (`language`), then marked
 * with it so that screen readers pronounce it right.
 */
export function ShownIn({ language, children }: { language: Language | null; children: ReactNode }) {
  return language ? <span lang={language}>{children}</span> : <>{children}</>;
}

/** The short note under such words, outside the heading or legend so it does not lengthen their name. */
export function ShownInNote({ language, className }: { language: Language | null; className?: string }) {
  if (!language) return null;
  return (
    <p className={className ?? 'text-xs text-slate-600'}>
      {t('loops.shownInDefaultLanguage', { language: languageName(language) })}
    </p>
  );
}
