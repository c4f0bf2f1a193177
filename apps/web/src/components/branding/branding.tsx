import { HEX_COLOR } from '@pulsecheck/shared/branding/colour';
import type { Branding } from '@pulsecheck/shared/branding/rules';
import { useEffect } from 'react';
import { cn } from '@/lib/cn';
import { t } from '@/lib/i18n';

/**
 * An organisation's branding on participant screens and loop answer pages (issue 32 item 10), in one place: the
 * logo, named by its alternative text, and the accent colour, which primary buttons read from the `--accent` and
 * `--accent-hover` custom properties (components/ui/button.tsx). The shared contrast rule (shared/branding) keeps
 * white button text readable on it; the darker hover shade only raises the contrast.
 */

/** The custom properties of an accent colour, or none for a missing or malformed one. */
export function accentProperties(accentColor: string | null | undefined): Record<string, string> {
  if (!accentColor || !HEX_COLOR.test(accentColor)) return {};
  return {
    '--accent': accentColor,
    '--accent-hover': `color-mix(in srgb, ${accentColor} 85%, black)`,
  };
}

/**
 * Gives the page the organisation's accent colour while the screen is shown (on the document, so dialogs and
 * toasts in portals have it too), and takes it away when the screen goes.
 */
export function useBranding(branding: Branding | null | undefined) {
  const accent = branding?.accentColor ?? null;
  useEffect(() => {
    const properties = Object.entries(accentProperties(accent));
    const style = document.documentElement.style;
    for (const [name, value] of properties) style.setProperty(name, value);
    return () => {
      for (const [name] of properties) style.removeProperty(name);
    };
  }, [accent]);
}

/** The organisation's logo, or nothing when it has none. */
export function BrandLogo({
  branding,
  className,
}: {
  branding: Branding | null | undefined;
  className?: string;
}) {
  if (!branding?.logoUrl) return null;
  return (
    <img
      src={branding.logoUrl}
      // BRANDING_MESSAGES.logoAlt by its key: branding/rules.ts holds zod, which these first screens do not load.
      alt={t('branding.logoAlt', { organization: branding.organizationName })}
      data-testid="brand-logo"
      className={cn('h-12 w-auto max-w-[200px] object-contain', className)}
    />
  );
}

/** Both at once: the accent colour for the page and the logo where this is rendered. */
export function BrandMark({
  branding,
  className,
}: {
  branding: Branding | null | undefined;
  className?: string;
}) {
  useBranding(branding);
  return <BrandLogo branding={branding} className={className} />;
}
