import { z } from 'zod';
import { messageWith } from '../i18n/message';
import { HEX_COLOR } from './colour';

/** A contrast ratio as it is told: rounded down to hundredths, so 4.499 never reads as the 4.50 it misses. */
const shownRatio = (ratio: number) => Math.floor(ratio * 100) / 100;

/**
 * An organisation's branding (issue 32 item 10): its logo and accent colour on participant screens, loop answer
 * pages and e-mails. The colour fills primary buttons behind white text, so it must be dark enough for that text to
 * stay readable: WCAG 2.2's contrast ratio of at least 4.5:1 (success criterion 1.4.3) against white.
 */
export const BRANDING_MESSAGES = {
  colorFormat: 'branding.colorFormat',
  /** `{ ratio }`: white text's contrast on the colour (`accentColorProblem`, `accentColorMessage`). */
  colorContrast: 'branding.colorContrast',
  colorReadable: 'branding.colorReadable',
  colorNone: 'branding.colorNone',
  logoMissing: 'branding.logoMissing',
  logoType: 'branding.logoType',
  logoTooLarge: 'branding.logoTooLarge',
  saved: 'branding.saved',
  /** The logo's alternative text wherever it is shown (participant screens, e-mails, the settings preview): `{ organization }`. */
  logoAlt: 'branding.logoAlt',
} as const;

export const MIN_BUTTON_CONTRAST = 4.5;
export const LOGO_MAX_BYTES = 512 * 1024;
/** No SVG (it can carry script) and no GIF: a logo is a still image of one of these types, told by its bytes. */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

export { HEX_COLOR };

/** WCAG relative luminance of a `#rrggbb` colour. */
export function relativeLuminance(hex: string): number {
  const channel = (offset: number) => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG contrast ratio of two `#rrggbb` colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/** Null when white button text on `hex` is readable; otherwise the message (i18n/message.ts) that says why not. */
export function accentColorProblem(hex: string): string | null {
  if (!HEX_COLOR.test(hex)) return BRANDING_MESSAGES.colorFormat;
  const ratio = contrastRatio(hex, '#ffffff');
  return ratio >= MIN_BUTTON_CONTRAST
    ? null
    : messageWith(BRANDING_MESSAGES.colorContrast, { ratio: shownRatio(ratio) });
}

/** The logo type by its first bytes (never by name or declared type), or null when it is not PNG, JPEG or WebP. */
export function detectLogoType(bytes: Uint8Array): LogoType | null {
  const at = (offset: number, signature: number[]) =>
    bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
  const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (at(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (at(0, ascii('RIFF')) && at(8, ascii('WEBP'))) return 'image/webp';
  return null;
}

/** The accent colour as saved: lower case, checked for format and contrast; null removes it. */
export const accentColorSchema = z
  .string()
  .trim()
  .transform((value) => value.toLowerCase())
  .superRefine((value, ctx) => {
    const problem = accentColorProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const updateBrandingSchema = z.strictObject({ accentColor: accentColorSchema.nullable() });

/** What participants' screens and e-mails show: nothing else of the organisation. */
export const brandingSchema = z.object({
  organizationName: z.string(),
  logoUrl: z.string().nullable(),
  accentColor: z.string().nullable(),
});
export type Branding = z.infer<typeof brandingSchema>;
export const brandingResponseSchema = z.object({ branding: brandingSchema });

/**
 * What the colour field says as it is typed: why it cannot be saved, or its contrast when it can, as a message
 * (i18n/message.ts).
 */
export function accentColorMessage(value: string): { ok: boolean; message: string } {
  const hex = value.trim().toLowerCase();
  if (hex === '') return { ok: true, message: BRANDING_MESSAGES.colorNone };
  const problem = accentColorProblem(hex);
  return problem
    ? { ok: false, message: problem }
    : {
        ok: true,
        message: messageWith(BRANDING_MESSAGES.colorReadable, {
          ratio: shownRatio(contrastRatio(hex, '#ffffff')),
        }),
      };
}

export const logoPath = (logoId: string) => `/api/organization-logos/${logoId}`;
