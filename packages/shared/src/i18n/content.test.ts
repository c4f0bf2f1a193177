import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONTENT_MESSAGES, contentTranslations, pickContent } from './content';
import { languageNameIn } from './languages';

const question = { text: 'Wie war Ihre Woche?', lowLabel: 'Schlecht', highLabel: 'Super' };
const translations = {
  en: { text: 'How was your week?', lowLabel: 'Rough', highLabel: 'Great' },
  fr: { text: 'Comment était votre semaine ?', lowLabel: 'Difficile', highLabel: 'Super' },
};

describe('pickContent: which words a reader sees', () => {
  it('shows the original to a reader of its language', () => {
    expect(pickContent({ original: question, language: 'de', translations, locale: 'de' })).toEqual({
      content: question,
      shownIn: null,
    });
  });

  it("shows the translation into the reader's language when there is one", () => {
    expect(pickContent({ original: question, language: 'de', translations, locale: 'fr' })).toEqual({
      content: translations.fr,
      shownIn: null,
    });
  });

  it("shows the original, naming its language, when there is no translation into the reader's", () => {
    expect(pickContent({ original: question, language: 'de', translations, locale: 'es' })).toEqual({
      content: question,
      shownIn: 'de',
    });
    expect(pickContent({ original: question, language: 'de', translations: null, locale: 'pt-BR' })).toEqual({
      content: question,
      shownIn: 'de',
    });
  });

  it('never mixes languages: a translation missing a text the original has is not used', () => {
    const partial = { es: { text: '¿Qué tal tu semana?' } };
    expect(pickContent({ original: question, language: 'de', translations: partial, locale: 'es' })).toEqual({
      content: question,
      shownIn: 'de',
    });
  });

  it('leaves out the texts the original has not (a free-text question has no labels)', () => {
    const original = { text: 'Anything else?', lowLabel: null, highLabel: null };
    const picked = pickContent({
      original,
      language: 'en',
      translations: { de: { text: 'Sonst noch etwas?' } },
      locale: 'de',
    });
    expect(picked).toEqual({
      content: { text: 'Sonst noch etwas?', lowLabel: null, highLabel: null },
      shownIn: null,
    });
  });

  it('reads a pseudo-locale as its base language', () => {
    expect(
      pickContent({ original: question, language: 'de', translations, locale: 'en-XA' }).content,
    ).toEqual(translations.en);
  });
});

describe('contentTranslations: what a translation may be', () => {
  const schema = contentTranslations(
    z.strictObject({ text: z.string().trim().min(1, 'required').max(5, 'long') }),
  );

  it('takes the five languages, each text checked as the original is', () => {
    expect(schema.parse({ de: { text: ' Hallo ' } })).toEqual({ de: { text: 'Hallo' } });
    expect(schema.safeParse({ de: { text: 'Zu lang' } }).error?.issues[0]?.message).toBe('long');
    expect(schema.safeParse({ xx: { text: 'Hi' } }).error?.issues[0]?.message).toBe(
      CONTENT_MESSAGES.translationLanguage,
    );
  });

  it('reads an empty translation, or none, as no translation', () => {
    expect(schema.parse({ de: { text: '  ' }, fr: { text: 'Salut' } })).toEqual({ fr: { text: 'Salut' } });
    expect(schema.parse({ de: { text: '' } })).toBeUndefined();
    expect(schema.parse({})).toBeUndefined();
    expect(schema.parse(undefined)).toBeUndefined();
  });
});

describe('languageNameIn: the name the note says', () => {
  it("names the content's language in the reader's", () => {
    expect(languageNameIn('de', 'en')).toBe('German');
    expect(languageNameIn('en', 'fr')).toBe('anglais');
    expect(languageNameIn('de', 'en-XA')).toBe('German');
  });
});
