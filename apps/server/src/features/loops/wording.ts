import { pickContent } from '@pulsecheck/shared/i18n/content';
import type { Language, Locale } from '@pulsecheck/shared/i18n/languages';
import { isCatalogueText, localizeContent } from '../../lib/content-language';
import type { QuestionRow } from './queries';

/**
 * A question's words for a reader in `locale` (decision 0027, 'Content in several languages'): a catalogue
 * question's in their language, an admin's in its translation into their language when it has one (`pickContent`),
 * else as written, with `shownIn` naming the loop's language. Every screen, e-mail and export of a question says
 * it through this.
 */
export function questionWording(
  row: Pick<QuestionRow, 'text' | 'lowLabel' | 'highLabel' | 'translations' | 'language'>,
  locale: Locale,
): { text: string; lowLabel: string | null; highLabel: string | null; shownIn: Language | null } {
  if (isCatalogueText(row.text, 'text')) {
    const label = (text: string | null, field: string) =>
      text === null ? null : localizeContent(locale, text, field);
    return {
      text: localizeContent(locale, row.text, 'text'),
      lowLabel: label(row.lowLabel, 'lowLabel'),
      highLabel: label(row.highLabel, 'highLabel'),
      shownIn: null,
    };
  }
  const { content, shownIn } = pickContent({
    original: { text: row.text, lowLabel: row.lowLabel, highLabel: row.highLabel },
    language: row.language,
    translations: row.translations,
    locale,
  });
  return { ...content, shownIn };
}
