import { describe, expect, it } from 'vitest';
import { CATALOGUE, GLOBAL_TEMPLATE_DESCRIPTION, GLOBAL_TEMPLATE_TITLE } from '../db/catalogue';
import { LOOP_CATALOGUE } from '@pulsecheck/shared/loops/catalogue';
import { canonicalContent, localizeAnswer, localizeContent } from './content-language';
import { translatorFor } from './i18n';

const de = translatorFor('de');
const en = translatorFor('en');

describe('the catalogue’s content in each language (issue 34)', () => {
  it('knows every text the seed stores, so each is shown translated', () => {
    const texts = [
      GLOBAL_TEMPLATE_TITLE,
      GLOBAL_TEMPLATE_DESCRIPTION,
      ...CATALOGUE.flatMap((c) => [c.title, c.description, c.category, ...c.examples]),
      ...LOOP_CATALOGUE.flatMap((t) => [
        t.title,
        t.description ?? '',
        ...t.questions.flatMap((q) => [q.text, ...(q.kind === 'scale' ? [q.lowLabel, q.highLabel] : [])]),
      ]),
    ];
    const untranslated = texts.filter((text) => localizeContent('fr', text) === text && text !== '');
    // A few words are the same in French (a loop's name such as 'eNPS'); none of the components'.
    expect(
      untranslated.filter((text) => CATALOGUE.some((c) => c.title === text || c.description === text)),
    ).toEqual([]);
    expect(untranslated.length).toBeLessThan(5);
  });

  it('translates the content fields of an answer, and leaves what people wrote as written', () => {
    const answer = {
      questions: [
        { kind: 'scale', text: en.t('loopCatalogue.wp1.text'), lowLabel: 'Rough', highLabel: 'Great' },
      ],
      freeText: [{ text: 'Great', author: null }],
      comments: [{ author: 'Anonymous', content: en.t('catalogue.c1.title') }],
      components: [{ title: en.t('catalogue.c1.title'), category: en.t('catalogue.category.communicate') }],
    };
    expect(localizeAnswer('de', answer)).toEqual({
      questions: [
        {
          kind: 'scale',
          text: de.t('loopCatalogue.wp1.text'),
          lowLabel: de.t('loopCatalogue.wp1.lowLabel'),
          highLabel: de.t('loopCatalogue.wp1.highLabel'),
        },
      ],
      freeText: [{ text: 'Great', author: null }],
      comments: [{ author: 'Anonymous', content: en.t('catalogue.c1.title') }],
      components: [{ title: de.t('catalogue.c1.title'), category: de.t('catalogue.category.communicate') }],
    });
    expect(localizeAnswer('en', answer)).toBe(answer);
  });

  it('stores the catalogue’s words sent in any language as its English, and other words as they are', () => {
    expect(canonicalContent(de.t('catalogue.c1.title'))).toBe(en.t('catalogue.c1.title'));
    expect(canonicalContent(translatorFor('pt-BR').t('loopCatalogue.wp1.text'))).toBe(
      en.t('loopCatalogue.wp1.text'),
    );
    expect(canonicalContent('Our own question?')).toBe('Our own question?');
  });
});
