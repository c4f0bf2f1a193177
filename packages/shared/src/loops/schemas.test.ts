import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../api/errors';
import { english } from '../i18n/english.test-support';
import { DEFAULT_LOOP_SETTINGS } from './rules';
import {
  answersBodySchema,
  launchLoopSchema,
  loopDefinitionSchema,
  loopTemplateSchema,
  roundAnswersSchema,
  type LaunchLoopInput,
} from './schemas';

const WORKSPACE = '3f0c9a52-8f1e-4c3e-9d7a-2b1f6f0a9c11';
const MEMBERS = [
  'a1b2c3d4-0000-4000-8000-000000000001',
  'a1b2c3d4-0000-4000-8000-000000000002',
  'a1b2c3d4-0000-4000-8000-000000000003',
];

const valid: LaunchLoopInput = {
  title: '  Weekly Pulse ',
  questions: [
    { kind: 'scale', text: 'How was your week?', lowLabel: 'Rough', highLabel: 'Great' },
    { kind: 'enps', text: 'How likely are you to recommend us?' },
    { kind: 'text', text: 'Anything else?' },
  ],
  audience: { kind: 'all' },
  cadence: 'weekly',
  weekday: 'monday',
  time: '09:00',
  timeZone: 'Europe/Berlin',
  roundDays: 3,
  start: 'now',
  workspaceId: WORKSPACE,
  launchKey: 'launch-key-123',
};

/** Field errors in English, as the forms and the API say them. */
const inEnglish = (fields: Record<string, string>) =>
  Object.fromEntries(Object.entries(fields).map(([field, message]) => [field, english.say(message)]));

/** The field errors of a launch with some fields changed, as the API answers them. */
function errorsOf(change: Partial<Record<keyof LaunchLoopInput, unknown>>) {
  const result = launchLoopSchema.safeParse({ ...valid, ...change });
  return result.success ? {} : inEnglish(fieldErrors(result.error));
}

describe('a loop definition', () => {
  it('takes a valid launch, trimmed, with the defaults filled in', () => {
    const parsed = launchLoopSchema.parse(valid);
    expect(parsed).toMatchObject({
      title: 'Weekly Pulse',
      description: '',
      anonymous: true,
      minResponses: 3,
      reminder: true,
      templateId: null,
    });
  });

  it('needs 1 to 10 questions', () => {
    expect(errorsOf({ questions: [] })).toEqual({ questions: 'Add at least one question' });
    expect(errorsOf({ questions: undefined })).toEqual({ questions: 'Add at least one question' });
    const eleven = Array.from({ length: 11 }, (_, i) => ({ kind: 'text', text: `Question ${i + 1}` }));
    expect(errorsOf({ questions: eleven })).toEqual({ questions: 'A loop has at most 10 questions' });
    const ten = eleven.slice(0, 10);
    expect(errorsOf({ questions: ten })).toEqual({});
  });

  it('needs each question written, not too long, of a known kind, a scale labelled at both ends', () => {
    expect(errorsOf({ questions: [{ kind: 'text', text: '   ' }] })).toEqual({
      'questions.0.text': 'Write the question',
    });
    expect(errorsOf({ questions: [{ kind: 'enps', text: 'x'.repeat(201) }] })).toEqual({
      'questions.0.text': 'A question has at most 200 characters',
    });
    expect(errorsOf({ questions: [{ kind: 'slider', text: 'How?' }] })).toEqual({
      'questions.0.kind': 'Choose a scale, a recommend score or free text',
    });
    expect(
      errorsOf({ questions: [{ kind: 'scale', text: 'How?', lowLabel: ' ', highLabel: 'y'.repeat(41) }] }),
    ).toEqual({
      'questions.0.lowLabel': 'Label both ends of the scale',
      'questions.0.highLabel': 'A scale label has at most 40 characters',
    });
    const id = MEMBERS[0];
    const twice = [
      { id, kind: 'text', text: 'A' },
      { id, kind: 'text', text: 'B' },
    ];
    expect(errorsOf({ questions: twice })).toEqual({ questions: 'A question appears twice' });
  });

  it('refuses an unknown cadence, weekday, time of day or time zone with a clear message', () => {
    expect(errorsOf({ cadence: 'daily' })).toEqual({ cadence: 'Choose weekly, every two weeks or monthly' });
    expect(errorsOf({ weekday: 'funday' })).toEqual({ weekday: 'Choose a weekday' });
    for (const time of ['24:00', '9:00', '09:00:00', 900]) {
      expect(errorsOf({ time }), String(time)).toEqual({
        time: 'Enter a time of day as HH:MM, from 00:00 to 23:59',
      });
    }
    expect(errorsOf({ timeZone: 'Mars/Olympus_Mons' })).toEqual({
      timeZone: 'Choose a time zone from the list',
    });
  });

  it('keeps a round open for 1 to 7 whole days', () => {
    for (const roundDays of [0, 8, 2.5, '3']) {
      expect(errorsOf({ roundDays }), String(roundDays)).toEqual({
        roundDays: 'A round stays open for 1 to 7 days',
      });
    }
  });

  it('never lets an anonymous loop show results below 3 responses', () => {
    expect(errorsOf({ minResponses: 2 })).toEqual({
      minResponses: 'An anonymous loop needs at least 3 responses before results show',
    });
    expect(errorsOf({ minResponses: 1, anonymous: false })).toEqual({});
    expect(errorsOf({ minResponses: 0, anonymous: false })).toEqual({
      minResponses: 'Minimum responses must be a number from 1 to 50',
    });
  });

  it('sends to everyone or to chosen members, enough of them to reach the minimum', () => {
    expect(errorsOf({ audience: { kind: 'members', memberIds: MEMBERS } })).toEqual({});
    expect(errorsOf({ audience: { kind: 'members', memberIds: [] } })).toEqual({
      'audience.memberIds': 'Choose at least one member',
    });
    expect(errorsOf({ audience: { kind: 'members', memberIds: ['not-an-id'] } })).toEqual({
      'audience.memberIds.0': 'Unknown member',
    });
    expect(
      errorsOf({ audience: { kind: 'members', memberIds: [MEMBERS[0], MEMBERS[0], MEMBERS[1]] } }),
    ).toEqual({
      'audience.memberIds': 'A member is chosen twice',
    });
    expect(errorsOf({ audience: { kind: 'members', memberIds: MEMBERS.slice(0, 2) } })).toEqual({
      'audience.memberIds':
        'The audience has 2 members, fewer than the 3 responses needed before results show',
    });
    expect(errorsOf({ audience: { kind: 'team' } })).toEqual({
      'audience.kind': 'Choose everyone in the workspace or chosen members',
    });
  });

  it('starts now or on a real date whose time exists in the zone that day', () => {
    expect(errorsOf({ start: '2026-12-07' })).toEqual({});
    expect(errorsOf({ start: '2026-02-30' })).toEqual({
      start: 'Enter the first round date as a real date (YYYY-MM-DD)',
    });
    expect(errorsOf({ start: undefined })).toEqual({
      start: "Choose 'Start now' or the date of the first round",
    });
    expect(errorsOf({ start: '2026-03-29', weekday: 'sunday', time: '02:30' })).toEqual({
      start:
        '02:30 does not exist on Sunday 29 March 2026 in Europe/Berlin: the clocks go forward that night. Choose another time or first round date',
    });
  });

  it('takes no unknown fields', () => {
    expect(launchLoopSchema.safeParse({ ...valid, extra: 1 }).success).toBe(false);
  });

  it('is the same definition without the launch fields, for editing', () => {
    const { start: _start, workspaceId: _workspace, launchKey: _key, ...definition } = valid;
    expect(loopDefinitionSchema.parse(definition)).toMatchObject({ title: 'Weekly Pulse', minResponses: 3 });
    const result = loopDefinitionSchema.safeParse({ ...definition, minResponses: 2 });
    expect(result.success ? {} : inEnglish(fieldErrors(result.error))).toEqual({
      minResponses: 'An anonymous loop needs at least 3 responses before results show',
    });
  });
});

describe('a loop template', () => {
  it('holds questions with optional keys and defaults that respect the anonymous floor', () => {
    const template = {
      title: 'Pulse',
      description: 'A pulse',
      questions: [{ key: 'p1', kind: 'text', text: 'Anything?' }],
      defaults: { cadence: 'weekly', weekday: 'friday', time: '14:00', roundDays: 2 },
    };
    expect(loopTemplateSchema.parse(template).defaults).toMatchObject({ anonymous: true, minResponses: 3 });
    expect(loopTemplateSchema.parse({ ...template, defaults: DEFAULT_LOOP_SETTINGS }).defaults).toEqual(
      DEFAULT_LOOP_SETTINGS,
    );
    const loose = loopTemplateSchema.safeParse({
      ...template,
      defaults: { ...template.defaults, minResponses: 1 },
    });
    expect(loose.success ? {} : inEnglish(fieldErrors(loose.error))).toEqual({
      'defaults.minResponses': 'An anonymous loop needs at least 3 responses before results show',
    });
  });
});

describe("a round's answers", () => {
  const questions = [
    { id: 'b0000000-0000-4000-8000-000000000001', kind: 'scale' as const },
    { id: 'b0000000-0000-4000-8000-000000000002', kind: 'enps' as const },
    { id: 'b0000000-0000-4000-8000-000000000003', kind: 'text' as const },
  ];
  const [scale, enps, text] = questions.map((question) => question.id) as [string, string, string];
  const schema = roundAnswersSchema(questions);
  const errors = (answers: unknown, partial = false) => {
    const result = roundAnswersSchema(questions, { partial }).safeParse(answers);
    return result.success ? {} : inEnglish(fieldErrors(result.error));
  };

  it('takes whole numbers in range and optional free text, dropping an empty text', () => {
    expect(schema.parse({ [scale]: 1, [enps]: 0, [text]: '  More focus time ' })).toEqual({
      [scale]: 1,
      [enps]: 0,
      [text]: 'More focus time',
    });
    expect(schema.parse({ [scale]: 5, [enps]: 10, [text]: '   ' })).toEqual({ [scale]: 5, [enps]: 10 });
    expect(schema.parse({ [scale]: 3, [enps]: 7 })).toEqual({ [scale]: 3, [enps]: 7 });
  });

  it('needs every scale and eNPS question answered, in range', () => {
    expect(errors({ [enps]: 7 })).toEqual({ [scale]: 'Answer this question' });
    for (const value of [0, 6, 2.5, '3']) {
      expect(errors({ [scale]: value, [enps]: 7 }), String(value)).toEqual({
        [scale]: 'Choose a value from 1 to 5',
      });
    }
    for (const value of [-1, 11, 9.5]) {
      expect(errors({ [scale]: 3, [enps]: value }), String(value)).toEqual({
        [enps]: 'Choose a score from 0 to 10',
      });
    }
    expect(errors({ [scale]: 3, [enps]: 7, [text]: 'x'.repeat(2001) })).toEqual({
      [text]: 'An answer has at most 2000 characters',
    });
  });

  it('refuses answers to questions of another round', () => {
    expect(errors({ [scale]: 3, [enps]: 7, 'c0000000-0000-4000-8000-000000000009': 4 })).toEqual({
      _: 'This question is not part of the round',
    });
  });

  it('takes a single answer when partial (the one-click answer from the e-mail)', () => {
    expect(errors({ [scale]: 4 }, true)).toEqual({});
    expect(errors({ [scale]: 9 }, true)).toEqual({ [scale]: 'Choose a value from 1 to 5' });
  });

  it('has a body shape keyed by question ids', () => {
    expect(answersBodySchema.safeParse({ answers: { [scale]: 3 } }).success).toBe(true);
    expect(answersBodySchema.safeParse({ answers: { 'not-an-id': 3 } }).success).toBe(false);
    expect(answersBodySchema.safeParse({ answers: { [scale]: true } }).success).toBe(false);
  });
});

describe('a question in several languages', () => {
  const translated = (translations: unknown, language?: 'en' | 'de') =>
    launchLoopSchema.safeParse({
      ...valid,
      ...(language ? { language } : {}),
      questions: [{ ...valid.questions[0], translations }, ...valid.questions.slice(1)],
    });

  it('takes a translation of its wording and, for a scale, its ends, each checked as the original is', () => {
    const parsed = translated(
      { de: { text: ' Wie war Ihre Woche? ', lowLabel: 'Schlecht', highLabel: 'Super' } },
      'en',
    );
    expect(parsed.data?.questions[0]?.translations).toEqual({
      de: { text: 'Wie war Ihre Woche?', lowLabel: 'Schlecht', highLabel: 'Super' },
    });
    const missing = translated(
      { de: { text: 'Wie war Ihre Woche?', lowLabel: '', highLabel: 'Super' } },
      'en',
    );
    expect(inEnglish(fieldErrors(missing.error!))).toEqual({
      'questions.0.translations.de.lowLabel': english.t('loops.scaleLabelRequired'),
    });
    const long = translated({ fr: { text: 'x'.repeat(201), lowLabel: 'a', highLabel: 'b' } }, 'en');
    expect(inEnglish(fieldErrors(long.error!))).toEqual({
      'questions.0.translations.fr.text': english.t('loops.questionTooLong'),
    });
  });

  it("refuses a translation into the loop's own language, and reads an empty one as none", () => {
    const same = translated(
      { de: { text: 'Wie war Ihre Woche?', lowLabel: 'Schlecht', highLabel: 'Super' } },
      'de',
    );
    expect(inEnglish(fieldErrors(same.error!))).toEqual({
      'questions.0.translations.de': english.t('language.translationSameLanguage'),
    });
    expect(
      translated({ de: { text: '', lowLabel: '', highLabel: '' } }, 'en').data?.questions[0]?.translations,
    ).toBeUndefined();
  });
});
