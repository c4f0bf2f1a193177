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

export const PLANS = [
  {
    name: 'Starter',
    price: '$29',
    period: '/month',
    features: ['Up to 50 team members', '5 loop templates', 'Basic analytics'],
    popular: false,
    cta: 'Start with Starter',
  },
  {
    name: 'Professional',
    price: '$79',
    period: '/month',
    features: ['Up to 200 members', 'All templates', 'Advanced analytics', 'Custom branding'],
    popular: true,
    cta: 'Start with Professional',
  },
  {
    name: 'Enterprise',
    price: 'Custom',
    period: '',
    features: [
      'Unlimited members',
      'Custom loop creation',
      'Enterprise analytics',
      'Dedicated support',
      'SSO',
    ],
    popular: false,
    cta: 'Talk to us',
  },
];

export const TESTIMONIALS = [
  {
    quote:
      'Our first health check surfaced two fires nobody had dared to mention. Both were fixed within a month.',
    name: 'Alex Morgan',
    role: 'Head of People, a 120-person scale-up',
  },
  {
    quote: 'The dot-voting step turned a long list of complaints into three clear priorities in ten minutes.',
    name: 'Priya Shah',
    role: 'Engineering Manager',
  },
  {
    quote: 'Running it every quarter shows us whether the changes we make actually help.',
    name: 'Jonas Berg',
    role: 'COO',
  },
];
