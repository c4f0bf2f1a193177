import {
  Check,
  Flame,
  HeartPulse,
  Languages,
  MessageSquareText,
  UserRound,
  Users,
  Vote,
  Zap,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { formats, t } from '@/lib/i18n';
import { features, plans, plansIntro, scenarios, steps } from './landing-content';
import { SiteFooter, SiteHeader } from './site-chrome';

const FEATURE_ICONS = [HeartPulse, Users, Flame, Check, Zap, MessageSquareText, Languages];

/** A titled band of the page; its id is the anchor the header links to. */
function Section({
  id,
  title,
  shaded = false,
  children,
}: {
  id: string;
  title: string;
  shaded?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      className={cn('scroll-mt-16 py-20', shaded && 'bg-slate-50')}
      aria-labelledby={`${id}-title`}
    >
      <div className="mx-auto max-w-6xl px-4">
        <h2 id={`${id}-title`} className="text-center text-3xl font-bold text-slate-900">
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

export function LandingPage() {
  return (
    <div className="min-h-screen bg-white">
      <SiteHeader />
      <main>
        <section className="bg-gradient-to-b from-brand-50 to-white">
          <div className="mx-auto max-w-6xl px-4 py-20 text-center sm:py-28">
            <p className="mx-auto inline-flex items-center gap-2 rounded-full bg-brand-100 px-3 py-1 text-sm font-medium text-brand-800">
              <Vote className="size-4" aria-hidden="true" /> {t('landing.badge')}
            </p>
            <h1 className="mx-auto mt-6 max-w-3xl text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
              {t('landing.headline')}
            </h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-700">{t('landing.lead')}</p>
            <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
              <Button size="lg" asChild>
                <Link to="/admin/signup">{t('landing.getEarlyAccess')}</Link>
              </Button>
              <Button size="lg" variant="secondary" asChild>
                <a href="#how-it-works">{t('landing.seeHowItWorks')}</a>
              </Button>
            </div>
          </div>
        </section>

        <Section id="features" title={t('landing.featuresTitle')}>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {features().map((feature, index) => {
              const Icon = FEATURE_ICONS[index] ?? Check;
              return (
                <li key={feature.id} className="rounded-xl border border-slate-200 p-6">
                  <Icon className="size-6 text-brand-600" aria-hidden="true" />
                  <h3 className="mt-4 font-semibold text-slate-900">{feature.title}</h3>
                  <p className="mt-2 text-sm text-slate-700">{feature.text}</p>
                </li>
              );
            })}
          </ul>
        </Section>

        <Section id="how-it-works" title={t('landing.howItWorks')} shaded>
          <ol className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {steps().map((step, index) => (
              <li key={step.id} className="rounded-xl bg-white p-6 shadow-sm">
                <span className="flex size-9 items-center justify-center rounded-full bg-brand-600 font-semibold text-white">
                  {formats().number(index + 1)}
                </span>
                <h3 className="mt-4 font-semibold text-slate-900">{step.title}</h3>
                <p className="mt-2 text-sm text-slate-700">{step.text}</p>
              </li>
            ))}
          </ol>
        </Section>

        <Section id="pricing" title={t('landing.pricingTitle')}>
          <p className="mx-auto mt-3 max-w-2xl text-center text-slate-700">{plansIntro()}</p>
          <div className="mt-12 grid gap-6 lg:grid-cols-3">
            {plans().map((plan) => (
              <article
                key={plan.name}
                aria-label={t('landing.planLabel', { plan: plan.name })}
                className={cn(
                  'relative flex flex-col rounded-2xl border p-8',
                  plan.popular ? 'border-brand-600 shadow-lg ring-1 ring-brand-600' : 'border-slate-200',
                )}
              >
                {plan.popular && (
                  <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white">
                    {t('landing.mostPopular')}
                  </p>
                )}
                <h3 className="text-lg font-semibold text-slate-900" translate="no">
                  {plan.name}
                </h3>
                <p className="mt-4">
                  <span className="text-4xl font-bold text-slate-900">{plan.price}</span>
                  <span className="text-slate-600">{plan.period}</span>
                </p>
                <ul className="mt-6 flex-1 space-y-3 text-sm text-slate-700">
                  {plan.features.map((feature) => (
                    <li key={feature} className="flex gap-2">
                      <Check className="size-5 shrink-0 text-green-700" aria-hidden="true" />
                      {feature}
                    </li>
                  ))}
                </ul>
                <Button className="mt-8" variant={plan.popular ? 'primary' : 'secondary'} asChild>
                  <Link to="/signup">{plan.cta}</Link>
                </Button>
              </article>
            ))}
          </div>
        </Section>

        <Section id="testimonials" title={t('landing.scenariosTitle')} shaded>
          <div className="mt-12 grid gap-6 lg:grid-cols-3">
            {scenarios().map((scenario) => (
              <figure key={scenario.id} className="rounded-xl bg-white p-6 shadow-sm">
                <div className="flex items-center justify-between gap-2">
                  <UserRound className="size-6 text-brand-500" aria-hidden="true" />
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
                    {t('landing.example')}
                  </span>
                </div>
                <p className="mt-3 text-slate-800">{scenario.text}</p>
                <figcaption className="mt-4 text-sm">
                  <span className="font-semibold text-slate-900">{scenario.who}</span>
                  <span className="block text-slate-600">{scenario.team}</span>
                </figcaption>
              </figure>
            ))}
          </div>
        </Section>

        <section className="py-20" aria-labelledby="beta-title">
          <div className="mx-auto max-w-4xl rounded-2xl bg-brand-700 px-6 py-14 text-center text-white">
            <h2 id="beta-title" className="text-3xl font-bold">
              {t('landing.betaTitle')}
            </h2>
            <p className="mx-auto mt-3 max-w-xl text-brand-50">{t('landing.betaText')}</p>
            <Button size="lg" variant="secondary" className="mt-8" asChild>
              <Link to="/admin/signup">{t('landing.joinBeta')}</Link>
            </Button>
          </div>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
