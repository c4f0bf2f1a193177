import { Fragment, type ReactNode } from 'react';
import { t } from '@/lib/i18n';
import { SiteFooter, SiteHeader } from './site-chrome';

function LegalPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="min-h-screen bg-white">
      <SiteHeader />
      <main className="mx-auto max-w-3xl px-4 py-12">
        <h1 className="text-3xl font-bold text-slate-900">{title}</h1>
        <div className="mt-6 space-y-4 text-slate-700 [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900">
          {children}
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}

/** A legal page's sections: heading and text, by their message keys' last parts. */
function Sections({ page, sections }: { page: 'terms' | 'privacy'; sections: readonly string[] }) {
  return sections.map((section) => (
    <Fragment key={section}>
      <h2>{t(`landing.${page}.${section}.title`)}</h2>
      <p>{t(`landing.${page}.${section}.text`)}</p>
    </Fragment>
  ));
}

export function TermsPage() {
  return (
    <LegalPage title={t('landing.nav.terms')}>
      <p>{t('landing.terms.intro')}</p>
      <Sections page="terms" sections={['account', 'content', 'use', 'beta']} />
    </LegalPage>
  );
}

export function PrivacyPage() {
  return (
    <LegalPage title={t('landing.nav.privacy')}>
      <p>{t('landing.privacy.intro')}</p>
      <Sections page="privacy" sections={['kept', 'anonymity', 'access', 'rights']} />
    </LegalPage>
  );
}
