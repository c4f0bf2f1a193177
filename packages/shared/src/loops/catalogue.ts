import type { LoopTemplate } from './schemas';

/**
 * The five global loop templates, seeded with the health-check catalogue (apps/server/src/db/seed.ts upserts
 * them by id, their questions by key) and offered on Templates and the dashboard. Ids are fixed so the seed is
 * idempotent and links survive restarts; keys are fixed so a refreshed wording reaches the same question.
 * Every scale question reads so that its high end is the good one, so means and trends read the same way up.
 */
export type GlobalLoopTemplate = LoopTemplate & { id: string };

export const LOOP_CATALOGUE: GlobalLoopTemplate[] = [
  {
    id: '00000000-0000-4000-8000-000000000101',
    title: 'Weekly Pulse',
    description:
      'Two minutes at the end of each week on how it went: workload, progress, support and one thing to change.',
    defaults: {
      cadence: 'weekly',
      weekday: 'friday',
      time: '14:00',
      roundDays: 3,
      anonymous: true,
      minResponses: 3,
      reminder: true,
    },
    questions: [
      {
        key: 'wp1',
        kind: 'scale',
        text: 'How was your week overall?',
        lowLabel: 'Rough',
        highLabel: 'Great',
      },
      {
        key: 'wp2',
        kind: 'scale',
        text: 'How manageable was your workload this week?',
        lowLabel: 'Overwhelming',
        highLabel: 'Very manageable',
      },
      {
        key: 'wp3',
        kind: 'scale',
        text: 'How much progress did you make on what matters most?',
        lowLabel: 'Hardly any',
        highLabel: 'A lot',
      },
      {
        key: 'wp4',
        kind: 'scale',
        text: 'How supported did you feel by your team this week?',
        lowLabel: 'Not at all',
        highLabel: 'Fully',
      },
      { key: 'wp5', kind: 'text', text: 'What is one thing that would make next week better?' },
    ],
  },
  {
    id: '00000000-0000-4000-8000-000000000102',
    title: 'eNPS',
    description:
      'The employee Net Promoter Score once a month: would people recommend working here, and why.',
    defaults: {
      cadence: 'monthly',
      weekday: 'tuesday',
      time: '10:00',
      roundDays: 5,
      anonymous: true,
      minResponses: 5,
      reminder: true,
    },
    questions: [
      {
        key: 'en1',
        kind: 'enps',
        text: 'How likely are you to recommend this company as a place to work to a friend?',
      },
      { key: 'en2', kind: 'text', text: 'What is the main reason for your score?' },
      {
        key: 'en3',
        kind: 'scale',
        text: 'How well can you see yourself growing here over the next year?',
        lowLabel: 'Not at all',
        highLabel: 'Very well',
      },
      { key: 'en4', kind: 'text', text: 'What one change would raise your score the most?' },
    ],
  },
  {
    id: '00000000-0000-4000-8000-000000000103',
    title: 'Wellbeing',
    description: 'Every two weeks: energy, stress, switching off, and whether people feel safe to speak up.',
    defaults: {
      cadence: 'biweekly',
      weekday: 'wednesday',
      time: '11:00',
      roundDays: 3,
      anonymous: true,
      minResponses: 3,
      reminder: true,
    },
    questions: [
      {
        key: 'wb1',
        kind: 'scale',
        text: 'How is your energy at work these days?',
        lowLabel: 'Drained',
        highLabel: 'Full of energy',
      },
      {
        key: 'wb2',
        kind: 'scale',
        text: 'How calm do you feel about the amount of work in front of you?',
        lowLabel: 'Very stressed',
        highLabel: 'Calm',
      },
      {
        key: 'wb3',
        kind: 'scale',
        text: 'How easily can you switch off from work when your day ends?',
        lowLabel: 'Never',
        highLabel: 'Always',
      },
      {
        key: 'wb4',
        kind: 'scale',
        text: 'How comfortable would you feel raising a personal concern with your manager?',
        lowLabel: 'Not at all',
        highLabel: 'Completely',
      },
      { key: 'wb5', kind: 'text', text: 'Is there anything that would help you feel better at work?' },
    ],
  },
  {
    id: '00000000-0000-4000-8000-000000000104',
    title: 'Meetings & Focus',
    description:
      'Every two weeks: are meetings worth their time, and is there room left for deep, uninterrupted work?',
    defaults: {
      cadence: 'biweekly',
      weekday: 'thursday',
      time: '15:00',
      roundDays: 2,
      anonymous: true,
      minResponses: 3,
      reminder: true,
    },
    questions: [
      {
        key: 'mf1',
        kind: 'scale',
        text: 'How many of your meetings in the last two weeks were worth your time?',
        lowLabel: 'Almost none',
        highLabel: 'Nearly all',
      },
      {
        key: 'mf2',
        kind: 'scale',
        text: 'How clear were the outcomes and next steps when your meetings ended?',
        lowLabel: 'Unclear',
        highLabel: 'Very clear',
      },
      {
        key: 'mf3',
        kind: 'scale',
        text: 'How easy was it to find uninterrupted time to focus?',
        lowLabel: 'Very hard',
        highLabel: 'Very easy',
      },
      {
        key: 'mf4',
        kind: 'scale',
        text: 'How manageable was the flow of messages and notifications?',
        lowLabel: 'Overwhelming',
        highLabel: 'Very manageable',
      },
      { key: 'mf5', kind: 'text', text: 'Which meeting would you change or drop, and why?' },
    ],
  },
  {
    id: '00000000-0000-4000-8000-000000000105',
    title: 'Onboarding Pulse',
    description:
      'For people in their first months: is the role clear, can they find what they need, do they feel welcome?',
    defaults: {
      cadence: 'weekly',
      weekday: 'monday',
      time: '10:00',
      roundDays: 3,
      anonymous: true,
      minResponses: 3,
      reminder: true,
    },
    questions: [
      {
        key: 'on1',
        kind: 'scale',
        text: 'How clear is what is expected of you in your role?',
        lowLabel: 'Not clear',
        highLabel: 'Very clear',
      },
      {
        key: 'on2',
        kind: 'scale',
        text: 'How easy is it to find the information and tools you need?',
        lowLabel: 'Very hard',
        highLabel: 'Very easy',
      },
      {
        key: 'on3',
        kind: 'scale',
        text: 'How welcome do you feel in your team?',
        lowLabel: 'Not at all',
        highLabel: 'Very welcome',
      },
      {
        key: 'on4',
        kind: 'enps',
        text: 'Based on your first weeks, how likely are you to recommend joining this company to a friend?',
      },
      { key: 'on5', kind: 'text', text: 'What has confused you or slowed you down so far?' },
    ],
  },
];
