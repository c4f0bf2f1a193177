/** The global 'Team Health Check' template: the 29 components of the spec, in its order (PRODUCT-DECISIONS 8). */
export const GLOBAL_TEMPLATE_ID = '00000000-0000-4000-8000-000000000001';
export const GLOBAL_TEMPLATE_TITLE = 'Team Health Check';
export const GLOBAL_TEMPLATE_DESCRIPTION =
  'Rate 29 areas of how your team communicates, meets, works, leads, wins, behaves, grows and shares.';

type CatalogueEntry = {
  key: string;
  category: string;
  title: string;
  description: string;
  examples: string[];
};

export const CATALOGUE: CatalogueEntry[] = [
  // How we communicate
  {
    key: 'c1',
    category: 'How we communicate',
    title: '🧭 Decisions',
    description:
      'We know who decides what, decisions are made at the right level, and they are communicated clearly.',
    examples: [
      'Everyone knows who owns a decision',
      'Decisions are written down with their reasons',
      'Decisions are not re-opened without new information',
    ],
  },
  {
    key: 'c2',
    category: 'How we communicate',
    title: '🤝 Cross-functional collaboration',
    description: 'Teams work across functions easily, with shared goals and no walls between departments.',
    examples: ['Engineering and sales plan launches together', 'Hand-offs between teams are smooth'],
  },
  {
    key: 'c3',
    category: 'How we communicate',
    title: '💬 Sync/async communication',
    description: 'We choose well between meetings and written updates, and nobody is left out of the loop.',
    examples: [
      'Status updates are written, not meetings',
      'Urgent things reach people quickly',
      'Channels have a clear purpose',
    ],
  },
  // How we meet
  {
    key: 'c4',
    category: 'How we meet',
    title: '📅 Meetings',
    description:
      'Our meetings have a purpose, an agenda and outcomes, and only the people who need to be there attend.',
    examples: ['Every meeting has an agenda', 'Meetings end with owners and next steps'],
  },
  {
    key: 'c5',
    category: 'How we meet',
    title: '☕ Connecting',
    description: 'We make time to know each other as people, remote and in person.',
    examples: [
      'Regular team socials',
      'New joiners meet people across the company',
      'Remote colleagues are included',
    ],
  },
  // How We Differ
  {
    key: 'c6',
    category: 'How We Differ',
    title: '🚩 Raising problems',
    description: 'Anyone can raise a problem early, and it is welcomed rather than punished.',
    examples: ['Bad news travels fast', 'Problems are raised in retrospectives without blame'],
  },
  {
    key: 'c7',
    category: 'How We Differ',
    title: '🕊️ Solving conflict',
    description: 'Disagreements are handled openly and respectfully and end in a decision.',
    examples: ['We disagree and commit', 'Conflicts are talked through directly, not behind backs'],
  },
  // How we work
  {
    key: 'c8',
    category: 'How we work',
    title: '🏗️ Big projects',
    description: 'Large projects are scoped, staffed and tracked so that they finish well.',
    examples: ['Projects have a clear owner and milestones', 'Risks are visible early'],
  },
  {
    key: 'c9',
    category: 'How we work',
    title: '⚙️ Building and scaling processes',
    description: 'Our processes are just enough, documented, and change as we grow.',
    examples: [
      'Processes are written down',
      'We retire processes that no longer help',
      'New processes are tried before they are imposed',
    ],
  },
  {
    key: 'c10',
    category: 'How we work',
    title: '🔄 Embracing change',
    description: 'We adapt quickly when priorities, markets or structures change.',
    examples: ['Changes are explained with their reasons', 'People are supported through reorganisations'],
  },
  {
    key: 'c11',
    category: 'How we work',
    title: '🎒 Onboarding',
    description: 'New people become productive and feel at home quickly.',
    examples: ['A written onboarding plan for every role', 'Every new joiner has a buddy'],
  },
  {
    key: 'c12',
    category: 'How we work',
    title: '🚪 Firing',
    description: 'When someone has to leave, it is handled fairly, respectfully and without surprises.',
    examples: ['Performance issues are raised long before a dismissal', 'Leavers are treated with dignity'],
  },
  {
    key: 'c13',
    category: 'How we work',
    title: '🧲 Hiring',
    description: 'We hire the right people with a fair, consistent and well-run process.',
    examples: [
      'Structured interviews with clear criteria',
      'Candidates hear back quickly',
      'Diverse interview panels',
    ],
  },
  // How we lead
  {
    key: 'c14',
    category: 'How we lead',
    title: '🧑‍✈️ Lead and manage',
    description: 'Leaders set direction, support their people and are available when needed.',
    examples: ['Regular one-to-ones', 'Managers remove blockers'],
  },
  {
    key: 'c15',
    category: 'How we lead',
    title: '📈 Manage performance',
    description: 'Expectations are clear, feedback is regular and performance is assessed fairly.',
    examples: ['Clear goals for every role', 'Reviews hold no surprises'],
  },
  {
    key: 'c16',
    category: 'How we lead',
    title: '🎯 Prioritise',
    description: 'We agree on what matters most and say no to the rest.',
    examples: ['A short, shared list of priorities', 'New requests are weighed against current work'],
  },
  {
    key: 'c17',
    category: 'How we lead',
    title: '🗣️ Equal voice and psychological safety',
    description: 'Everyone can speak up, ask questions and take risks without fear.',
    examples: [
      'Quiet voices are invited in meetings',
      'Mistakes can be admitted safely',
      'Ideas are judged on merit, not rank',
    ],
  },
  // How we win
  {
    key: 'c18',
    category: 'How we win',
    title: '🌟 Mission/vision alignment',
    description: 'Everyone understands where we are going and how their work contributes.',
    examples: ['People can explain the mission in their own words', 'Team goals link to company goals'],
  },
  {
    key: 'c19',
    category: 'How we win',
    title: '🏅 Incentivise',
    description: 'Rewards and recognition encourage the behaviour and results we want.',
    examples: ['Pay and promotion criteria are transparent', 'Team success is rewarded, not only individual'],
  },
  {
    key: 'c20',
    category: 'How we win',
    title: '🎉 Celebrate wins',
    description: 'We notice and celebrate successes, big and small.',
    examples: ['Wins are shared in all-hands', 'Shipping milestones are marked'],
  },
  // How we behave
  {
    key: 'c21',
    category: 'How we behave',
    title: '🧱 Operationalise values',
    description: 'Our values show up in daily decisions, hiring and reviews, not just on the wall.',
    examples: ['Values are part of interview scorecards', 'Decisions are explained with our values'],
  },
  {
    key: 'c22',
    category: 'How we behave',
    title: '⛔ Outlaw unhelpful behaviours',
    description: 'Behaviour that harms the team is named and stopped, whoever shows it.',
    examples: ['Rudeness is addressed promptly', 'High performers are held to the same standard'],
  },
  {
    key: 'c23',
    category: 'How we behave',
    title: '👏 Reinforce helpful behaviours',
    description: 'Behaviour that helps the team is recognised so that it spreads.',
    examples: ['Peer shout-outs', 'Helpful behaviour is mentioned in reviews'],
  },
  {
    key: 'c24',
    category: 'How we behave',
    title: '✅ Hold ourselves accountable',
    description: 'We do what we say, own our mistakes and follow through.',
    examples: [
      'Commitments are tracked',
      'Owners report back on action items',
      'Missed deadlines are flagged early',
    ],
  },
  // How we grow
  {
    key: 'c25',
    category: 'How we grow',
    title: '🧪 Handle failure',
    description: 'Failures are treated as chances to learn, with blameless reviews.',
    examples: ['Blameless post-mortems', 'Lessons are shared across teams'],
  },
  {
    key: 'c26',
    category: 'How we grow',
    title: '🌱 Develop ourselves',
    description: 'People have time, budget and support to learn and grow.',
    examples: ['Learning budget per person', 'Personal development plans', 'Internal mentoring'],
  },
  {
    key: 'c27',
    category: 'How we grow',
    title: '🔁 Give and receive feedback',
    description: 'Feedback flows often, kindly and in every direction.',
    examples: ['Feedback is given within days, not months', 'Managers ask for feedback too'],
  },
  // How We Share
  {
    key: 'c28',
    category: 'How We Share',
    title: '📚 Share knowledge',
    description: 'Knowledge is shared openly so nobody is a single point of failure.',
    examples: ['Demos and lunch-and-learns', 'Pairing across teams'],
  },
  {
    key: 'c29',
    category: 'How We Share',
    title: '🗂️ Handle documentation',
    description: 'Documentation is easy to find, current and trusted.',
    examples: ['One place for team docs', 'Docs are updated when things change'],
  },
];
