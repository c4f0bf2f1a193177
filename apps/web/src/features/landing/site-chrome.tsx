import { LanguageMenu } from '@/components/language-menu';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { t } from '@/lib/i18n';

type SiteLink = { label: string; href: string };

// Section anchors are plain links (they work from any page); the legal pages are screens of the app.
const headerLinks = (): SiteLink[] => [
  { label: t('landing.nav.features'), href: '/#features' },
  { label: t('landing.nav.howItWorks'), href: '/#how-it-works' },
  { label: t('landing.nav.pricing'), href: '/#pricing' },
];
const footerLinks = (): SiteLink[] => [
  { label: t('landing.nav.features'), href: '/#features' },
  { label: t('landing.nav.pricing'), href: '/#pricing' },
  { label: t('landing.nav.terms'), href: '/terms' },
  { label: t('landing.nav.privacy'), href: '/privacy' },
];

function NavLinks({ links }: { links: SiteLink[] }) {
  return links.map(({ label, href }) =>
    href.includes('#') ? (
      <a key={href} href={href} className="hover:text-slate-900">
        {label}
      </a>
    ) : (
      <Link key={href} to={href} className="hover:text-slate-900">
        {label}
      </Link>
    ),
  );
}

export function SiteHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Logo />
        <nav
          aria-label={t('landing.nav.main')}
          className="hidden items-center gap-6 text-sm font-medium text-slate-700 md:flex"
        >
          <NavLinks links={headerLinks()} />
        </nav>
        <div className="flex items-center gap-2">
          <LanguageMenu compact />
          <Button variant="ghost" size="sm" asChild>
            <Link to="/login">{t('landing.logIn')}</Link>
          </Button>
          {/* Below 640 px the hero's own button is the call to action; the header keeps only Log in. */}
          <Button size="sm" className="hidden sm:inline-flex" asChild>
            <Link to="/admin/signup">{t('landing.getEarlyAccess')}</Link>
          </Button>
        </div>
      </div>
    </header>
  );
}

export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <Logo />
          <p className="mt-2 max-w-xs text-sm text-slate-600">{t('landing.tagline')}</p>
        </div>
        <nav
          aria-label={t('landing.nav.footer')}
          className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-700"
        >
          <NavLinks links={footerLinks()} />
        </nav>
      </div>
      <p className="border-t border-slate-100 py-4 text-center text-sm text-slate-600">
        {t('landing.copyright', { year: String(new Date().getFullYear()) })}
      </p>
    </footer>
  );
}
