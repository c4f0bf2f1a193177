import type { Branding } from '@pulsecheck/shared/branding/rules';
import type { ReactNode } from 'react';
import { BrandLogo } from '@/components/branding/branding';

/**
 * A participant screen's content: its title and description, then the screen. The frame around it (logo,
 * navigation, the notification bell, logout, the `main` landmark) is the participant layout's
 * (app/layouts/participant-layout.tsx), which every signed-in participant route renders. With `branding`, the
 * organisation's logo leads the screen (its accent colour is the page's: `useBranding` in the screen itself).
 */
export function ParticipationShell({
  title,
  description,
  children,
  branding,
}: {
  title?: string;
  description?: string | null;
  children: ReactNode;
  branding?: Branding | null;
}) {
  return (
    <div className="mx-auto max-w-5xl px-4 pt-6 pb-28 sm:pt-8 md:pb-10">
      <BrandLogo branding={branding} className="mb-4" />
      {title && (
        <div className="mb-6">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
          {description && <p className="mt-1 text-slate-700">{description}</p>}
        </div>
      )}
      {children}
    </div>
  );
}
