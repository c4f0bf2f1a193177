import { describe, expect, it } from 'vitest';
import { Translator } from './translate';

describe('Translator', () => {
  const translator = new Translator('en', { 'common.save': 'Save' });

  it('says a key in its language and leaves any other text as written', () => {
    expect(translator.say('common.save')).toBe('Save');
    expect(translator.say('Great team')).toBe('Great team');
  });

  it("takes no object's own property for a message: 'valueOf' and 'constructor' are text", () => {
    for (const text of ['valueOf', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(translator.has(text)).toBe(false);
      expect(translator.say(text)).toBe(text);
    }
  });

  it('adds a part of the catalogue', () => {
    const more = new Translator('en', {});
    more.add({ 'common.cancel': 'Cancel' });
    expect(more.t('common.cancel')).toBe('Cancel');
  });
});
