import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../api/errors';
import { isUuid } from '../api/ids';
import { LOOP_CATALOGUE } from './catalogue';
import { planFirstRound } from './schedule';
import { loopTemplateSchema } from './schemas';

describe('the global loop templates', () => {
  it('are the five of the issue, in order', () => {
    expect(LOOP_CATALOGUE.map((template) => template.title)).toEqual([
      'Weekly Pulse',
      'eNPS',
      'Wellbeing',
      'Meetings & Focus',
      'Onboarding Pulse',
    ]);
  });

  it('each pass the template schema unchanged (nothing to trim, no default left to fill)', () => {
    for (const { id: _id, ...template } of LOOP_CATALOGUE) {
      const result = loopTemplateSchema.safeParse(template);
      expect(result.success ? {} : fieldErrors(result.error), template.title).toEqual({});
      expect(result.data, template.title).toEqual(template);
    }
  });

  it('have fixed UUIDs and question keys, unique across the catalogue', () => {
    const ids = LOOP_CATALOGUE.map((template) => template.id);
    expect(ids.every(isUuid)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // The health-check catalogue's template is ...0001.
    expect(ids).not.toContain('00000000-0000-4000-8000-000000000001');
    const keys = LOOP_CATALOGUE.flatMap((template) => template.questions.map((question) => question.key));
    expect(keys.every((key) => typeof key === 'string' && key.length > 0)).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('ask 3 to 6 different questions each, mixing kinds, and end with room to say something in words', () => {
    for (const template of LOOP_CATALOGUE) {
      const { questions } = template;
      expect(questions.length, template.title).toBeGreaterThanOrEqual(3);
      expect(questions.length, template.title).toBeLessThanOrEqual(6);
      expect(new Set(questions.map((question) => question.kind)).size, template.title).toBeGreaterThanOrEqual(
        2,
      );
      expect(new Set(questions.map((question) => question.text.toLowerCase())).size, template.title).toBe(
        questions.length,
      );
      expect(
        questions.some((question) => question.kind === 'text'),
        template.title,
      ).toBe(true);
      for (const question of questions) expect(question.text.endsWith('?'), question.text).toBe(true);
    }
  });

  it('measure the eNPS where their name says so', () => {
    const enps = LOOP_CATALOGUE.find((template) => template.title === 'eNPS');
    expect(enps?.questions[0]?.kind).toBe('enps');
  });

  it('start on a schedule that can be planned in any zone', () => {
    for (const template of LOOP_CATALOGUE) {
      for (const timeZone of ['Europe/Berlin', 'America/Los_Angeles', 'Asia/Tokyo']) {
        const rule = { ...template.defaults, timeZone };
        const { opensAt } = planFirstRound(rule, '2027-01-01', new Date('2026-12-01T00:00:00Z'));
        expect(opensAt.getTime(), template.title).toBeGreaterThan(Date.UTC(2026, 11, 31));
      }
    }
  });
});
