import type { ReactNode } from 'react';
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

export function TermsPage() {
  return (
    <LegalPage title="Terms of Service">
      <p>These terms apply to your use of Pulsecheck. By creating an account you agree to them.</p>
      <h2>Your account</h2>
      <p>
        You are responsible for keeping your password safe and for what happens under your account. Give us a
        correct e-mail address: we use it to verify your account and to send messages you ask for.
      </p>
      <h2>Your content</h2>
      <p>
        The health checks, answers, comments and action items you and your team create belong to your
        organisation. We process them only to provide the service to you.
      </p>
      <h2>Acceptable use</h2>
      <p>
        Do not use Pulsecheck to harass anyone, to collect answers from people without their knowledge, or to
        break the law. We may suspend accounts that do.
      </p>
      <h2>Beta</h2>
      <p>
        Pulsecheck is in beta. We work hard to keep it available and your data safe, but we provide it as it
        is, without warranties. You can stop using it and ask us to delete your data at any time.
      </p>
    </LegalPage>
  );
}

export function PrivacyPage() {
  return (
    <LegalPage title="Privacy Policy">
      <p>This policy explains what personal data Pulsecheck keeps and why.</p>
      <h2>What we keep</h2>
      <p>
        Your name, e-mail address, job title and company details; the answers and comments you give in health
        checks; and technical data needed to keep you signed in, such as session cookies.
      </p>
      <h2>Anonymity</h2>
      <p>
        When a health check is anonymous, nobody in your organisation can see who gave which rating or
        comment. Results are shown only once enough people have answered.
      </p>
      <h2>Who sees it</h2>
      <p>
        Only the people in your workspace, according to their access. We do not sell personal data and use no
        advertising or tracking cookies.
      </p>
      <h2>Your rights</h2>
      <p>
        You can see, correct and delete your personal data. Contact your workspace administrator, or write to
        us, and we will answer within 30 days.
      </p>
    </LegalPage>
  );
}
