import { describe, expect, it } from 'vitest';
import { english } from '../i18n/english.test-support';
import { responsesSchema } from './contract';
import {
  answeredPercent,
  comingUpNext,
  nextActionFor,
  PARTICIPATION_MESSAGES,
  unansweredCount,
} from './rules';

const a = '00000000-0000-4000-8000-00000000000a';
const b = '00000000-0000-4000-8000-00000000000b';

describe('responses schema', () => {
  it('accepts the four ratings on component ids and comments up to 2000 characters', () => {
    const parsed = responsesSchema.safeParse({
      votes: { [a]: 'healthy', [b]: 'dont-know' },
      comments: { [a]: 'x'.repeat(2000) },
      last_component_index: 1,
    });
    expect(parsed.success).toBe(true);
  });

  it.each([
    [{ votes: { [a]: 'great' } }, PARTICIPATION_MESSAGES.invalidRating],
    [{ votes: { c1: 'healthy' } }, PARTICIPATION_MESSAGES.unknownComponent],
    [{ comments: { [a]: 'x'.repeat(2001) } }, PARTICIPATION_MESSAGES.commentTooLong],
  ])('refuses %o', (override, message) => {
    const parsed = responsesSchema.safeParse({
      votes: {},
      comments: {},
      last_component_index: 0,
      ...override,
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });
});

describe('progress and release rules', () => {
  it('counts unanswered components and the share answered', () => {
    expect(unansweredCount([a, b], { [a]: 'healthy' })).toBe(1);
    expect(answeredPercent([a, b], { [a]: 'healthy' })).toBe(50);
    expect(answeredPercent([], {})).toBe(0);
  });

  it('words the unanswered message as the spec does', () => {
    expect(english.t(PARTICIPATION_MESSAGES.unanswered, { count: 3 })).toBe(
      'You have 3 unanswered components. Please complete all ratings before submitting.',
    );
    // The spec's string for every n, one included (issue 14).
    expect(english.t(PARTICIPATION_MESSAGES.unanswered, { count: 1 })).toBe(
      'You have 1 unanswered components. Please complete all ratings before submitting.',
    );
  });
});

describe("completion 'Coming up next' (PRODUCT-DECISIONS 9)", () => {
  it.each([
    ['collect', 'Phase 2 Problem Solving', 'Share Ideas'],
    ['vote', 'Phase 2 Problem Solving', 'Share Ideas'],
    ['summarize', 'Phase 3 Action Planning', 'Plan Actions'],
    ['plan', 'Implementation', 'View Roadmap'],
    ['other', 'Next Steps', 'Check Status'],
  ])('%s gives %s with %s', (phase, title, action) => {
    const next = comingUpNext(phase, 'id');
    expect([english.say(next.title), english.say(next.action)]).toEqual([title, action]);
  });

  it("disables 'Share Ideas' until voting starts", () => {
    expect(english.say(comingUpNext('collect', 'id').disabledReason ?? '')).toBe('Opens when voting starts');
    expect(comingUpNext('vote', 'id').disabledReason).toBeUndefined();
    expect(comingUpNext('other', 'id').to).toBe('/dashboard');
  });
});

describe('next action on /dashboard', () => {
  const item = { id: 'x', resultsReleased: false };
  it('starts, continues, shows status, votes or shows results', () => {
    const label = (action: ReturnType<typeof nextActionFor>) => english.say(action?.label ?? '');
    expect(label(nextActionFor({ ...item, phase: 'collect', participantStatus: 'pending' }))).toBe('Start');
    expect(nextActionFor({ ...item, phase: 'collect', participantStatus: 'in_progress' })?.to).toBe(
      '/health-check/x/voting',
    );
    expect(nextActionFor({ ...item, phase: 'collect', participantStatus: 'completed' })?.to).toBe(
      '/health-check/x/complete',
    );
    expect(label(nextActionFor({ ...item, phase: 'vote', participantStatus: 'completed' }))).toBe('Vote');
    expect(nextActionFor({ ...item, phase: 'vote', participantStatus: 'in_progress' })).toBeNull();
    expect(nextActionFor({ ...item, phase: 'summarize', participantStatus: 'completed' })).toBeNull();
    expect(
      label(
        nextActionFor({ ...item, resultsReleased: true, phase: 'summarize', participantStatus: 'completed' }),
      ),
    ).toBe('View Results');
  });
});
