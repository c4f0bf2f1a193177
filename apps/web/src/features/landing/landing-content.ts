export const FEATURES = [
  {
    title: 'Health checks in minutes',
    text: 'Start from 29 proven areas of team practice, switch off what does not fit, and share one link.',
  },
  {
    title: 'Honest, anonymous answers',
    text: 'People rate each area as healthy, needs improvement or fire warning. Nobody sees who said what.',
  },
  {
    title: 'Priorities, not just charts',
    text: 'Results rank the fires first, and dot-voting lets the team agree on what to fix next.',
  },
  {
    title: 'Action items that stick',
    text: 'Turn the top areas into owned, dated actions, and see the trend when you run the check again.',
  },
  {
    title: 'Loops: recurring pulses',
    text: 'Up to ten short questions weekly, every two weeks or monthly. People answer in one click from their inbox, and trends say whether a change is real or normal variation.',
  },
  {
    title: 'Live as it happens',
    text: 'Watch responses arrive in real time, and remind the people who have not finished yet.',
  },
];

export const STEPS = [
  {
    title: 'Configure',
    text: 'Pick a template, choose the areas that matter to your team and set how voting works.',
  },
  { title: 'Collect', text: 'Share the join link. Everyone rates each area and can add a comment.' },
  { title: 'Vote', text: 'The team places dots on the areas it most wants to fix.' },
  {
    title: 'Plan',
    text: 'Agree on action items with owners and due dates, and follow up in three to six months.',
  },
];

/**
 * The plans of a self-hosted installation (PRODUCT-DECISIONS 9): every feature is in every installation, with no
 * member or template limits; the prices are for optional support, never for unlocking anything. 'Custom branding'
 * (an organisation's logo and accent colour on participant screens, loop answer pages and e-mails) is one of them.
 */
export const PLANS_INTRO =
  'Pulsecheck is free to host yourself: every installation has every feature, with no limit on members or templates. The plans are optional support for teams that want a hand.';

export const PLANS = [
  {
    name: 'Starter',
    price: '$29',
    period: '/month',
    features: [
      'Every feature, on your own server',
      'Custom branding: your logo and accent colour for participants',
      'No limit on members or templates',
      'E-mail help with set-up and upgrades',
    ],
    popular: false,
    cta: 'Start with Starter',
  },
  {
    name: 'Professional',
    price: '$79',
    period: '/month',
    features: [
      'Everything in Starter',
      'Help with single sign-on, custom branding and backups',
      'Answers within one business day',
    ],
    popular: true,
    cta: 'Start with Professional',
  },
  {
    name: 'Enterprise',
    price: 'Custom',
    period: '',
    features: [
      'Everything in Professional',
      'Help running on PostgreSQL with several server processes',
      'A named contact and a support agreement',
    ],
    popular: false,
    cta: 'Talk to us',
  },
];

/**
 * How teams use Pulsecheck: examples, each with a role and a team size. Nobody invented, nobody quoted
 * (PRODUCT-DECISIONS 9).
 */
export const SCENARIOS = [
  {
    who: 'A head of people',
    team: '120 people in 9 teams',
    text: 'Runs a health check with every team each quarter and compares the teams on the heat map in Insights, which never shows anyone\u2019s answers.',
  },
  {
    who: 'An engineering manager',
    team: 'a team of 8',
    text: 'Lets the team dot-vote on the fire warnings after each check, turns the top three into action items with owners and due dates, and looks at the trend on the next check.',
  },
  {
    who: 'A COO',
    team: '40 people',
    text: 'Sends a monthly loop with an eNPS question that people answer in one click from their inbox, and sees whether a change is real or normal variation.',
  },
];
