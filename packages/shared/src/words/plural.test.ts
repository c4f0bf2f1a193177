import { describe, expect, it } from 'vitest';
import { countOf, pluralWord } from './plural';

describe('countOf', () => {
  it('says one of a thing in the singular, and none or many in the plural', () => {
    expect(countOf(1, 'dot')).toBe('1 dot');
    expect(countOf(0, 'dot')).toBe('0 dots');
    expect(countOf(2, 'dot')).toBe('2 dots');
    expect(countOf(1, 'person', 'people')).toBe('1 person');
    expect(countOf(3, 'person', 'people')).toBe('3 people');
  });
  it('gives the word alone for verbs that follow the count', () => {
    expect(pluralWord(1, 'response is', 'responses are')).toBe('response is');
    expect(pluralWord(4, 'response is', 'responses are')).toBe('responses are');
  });
});
