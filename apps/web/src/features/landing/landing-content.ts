import { formats, t } from '@/lib/i18n';

/*
 * The landing page's copy, in the app's language. Functions, not constants: the catalogue is not loaded when
 * modules load (lib/i18n.tsx).
 */

/** What the product does; the last one is the languages it speaks (issue 34). */
export const features = () =>
  (['healthChecks', 'anonymous', 'priorities', 'actionItems', 'loops', 'live', 'languages'] as const).map(
    (id) => ({ id, title: t(`landing.feature.${id}.title`), text: t(`landing.feature.${id}.text`) }),
  );

export const steps = () =>
  (['configure', 'collect', 'vote', 'plan'] as const).map((id) => ({
    id,
    title: t(`landing.step.${id}.title`),
    text: t(`landing.step.${id}.text`),
  }));

/** A price in US dollars, as the app's language writes one ('$29', '29 $'). */
const dollars = (amount: number) =>
  formats().number(amount, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/**
 * The plans of a self-hosted installation (PRODUCT-DECISIONS 9): every feature is in every installation, with no
 * member or template limits; the prices are for optional support, never for unlocking anything. 'Custom branding'
 * (an organisation's logo and accent colour on participant screens, loop answer pages and e-mails) is one of them.
 * The plans' names are names and stay as they are.
 */
export const plansIntro = () => t('landing.plansIntro');

export const plans = () => [
  {
    name: 'Starter',
    price: dollars(29),
    period: t('landing.perMonth'),
    features: [
      t('landing.plan.starter.everyFeature'),
      t('landing.plan.starter.branding'),
      t('landing.plan.starter.noLimit'),
      t('landing.plan.starter.emailHelp'),
    ],
    popular: false,
    cta: t('landing.plan.starter.cta'),
  },
  {
    name: 'Professional',
    price: dollars(79),
    period: t('landing.perMonth'),
    features: [
      t('landing.plan.professional.everythingInStarter'),
      t('landing.plan.professional.help'),
      t('landing.plan.professional.answers'),
    ],
    popular: true,
    cta: t('landing.plan.professional.cta'),
  },
  {
    name: 'Enterprise',
    price: t('landing.plan.enterprise.price'),
    period: '',
    features: [
      t('landing.plan.enterprise.everythingInProfessional'),
      t('landing.plan.enterprise.postgres'),
      t('landing.plan.enterprise.contact'),
    ],
    popular: false,
    cta: t('landing.plan.enterprise.cta'),
  },
];

/**
 * How teams use Pulsecheck: examples, each with a role and a team size. Nobody invented, nobody quoted
 * (PRODUCT-DECISIONS 9).
 */
export const scenarios = () =>
  (['people', 'engineering', 'coo'] as const).map((id) => ({
    id,
    who: t(`landing.scenario.${id}.who`),
    team: t(`landing.scenario.${id}.team`),
    text: t(`landing.scenario.${id}.text`),
  }));
