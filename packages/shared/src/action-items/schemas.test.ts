import { describe, expect, it } from 'vitest';
import { isRealDate } from '../results/schemas';
import { ACTION_ITEM_MESSAGES, createActionItemSchema, matchPeople, mentionQueryAt } from './schemas';
import actionItemWords from '../../messages/en/actionItems.json';

/** The English words of the shared catalogue, by key. */
const english: Record<string, string> = actionItemWords;

describe('action item input', () => {
  it('accepts real dates only', () => {
    expect(isRealDate('2027-02-28')).toBe(true);
    expect(isRealDate('2028-02-29')).toBe(true);
    expect(isRealDate('2027-02-29')).toBe(false);
    expect(isRealDate('2027-02-30')).toBe(false);
    expect(isRealDate('0000-01-01')).toBe(false);
    expect(
      createActionItemSchema.safeParse({ description: 'x', ownerId: 'u', dueDate: '2027-13-01' }).success,
    ).toBe(false);
  });

  it('requires a description after trimming', () => {
    const result = createActionItemSchema.safeParse({ description: '   ', ownerId: 'u' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(ACTION_ITEM_MESSAGES.descriptionRequired);
    expect(english[ACTION_ITEM_MESSAGES.descriptionRequired]).toBe('Description is required');
  });
});

describe('@mentions', () => {
  it('finds the word being typed after @', () => {
    expect(mentionQueryAt('Ask @ad', 7)).toEqual({ query: 'ad', start: 4 });
    expect(mentionQueryAt('@', 1)).toEqual({ query: '', start: 0 });
    expect(mentionQueryAt('mail a@b', 8)).toBeNull();
    expect(mentionQueryAt('Ask @ada now', 12)).toBeNull();
  });

  it('matches people by name or e-mail, case-insensitive', () => {
    const people = [
      { name: 'Ada Lovelace', email: 'ada@example.com' },
      { name: 'Grace Hopper', email: 'grace@navy.mil' },
    ];
    expect(matchPeople(people, 'LOVE').map((p) => p.name)).toEqual(['Ada Lovelace']);
    expect(matchPeople(people, 'navy').map((p) => p.name)).toEqual(['Grace Hopper']);
    expect(matchPeople(people, '')).toHaveLength(2);
  });
});
