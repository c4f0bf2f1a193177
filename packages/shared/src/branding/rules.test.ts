import { describe, expect, it } from 'vitest';
import { english } from '../i18n/english.test-support';
import {
  accentColorMessage,
  accentColorProblem,
  BRANDING_MESSAGES,
  contrastRatio,
  detectLogoType,
  relativeLuminance,
  updateBrandingSchema,
} from './rules';

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(values.flatMap((v) => (typeof v === 'string' ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe('contrast (WCAG 2.2)', () => {
  it('gives the relative luminance of black, white and a mid grey', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 10);
    expect(relativeLuminance('#808080')).toBeCloseTo(0.2158605, 6);
  });

  it('gives 21:1 for black on white, the same either way round, and 1:1 for a colour on itself', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 10);
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 10);
    expect(contrastRatio('#1d4ed8', '#1d4ed8')).toBe(1);
  });

  it('accepts an accent white text reaches 4.5:1 on, and refuses one just below with the ratio in the message', () => {
    // #767676 is the lightest grey with 4.54:1 against white; #777777 has 4.477:1.
    expect(accentColorProblem('#767676')).toBeNull();
    expect(accentColorProblem('#1d4ed8')).toBeNull();
    expect(english.say(accentColorProblem('#777777') ?? '')).toBe(
      'White text on this colour has a contrast of 4.47:1; choose a darker colour (at least 4.5:1) so button text stays readable',
    );
    expect(english.say(accentColorProblem('#ffff00') ?? '')).toContain('choose a darker colour');
  });

  it('refuses anything but #rrggbb', () => {
    for (const value of ['1d4ed8', '#1d4', '#1d4ed8ff', 'red', '#gggggg', ''])
      expect(accentColorProblem(value)).toBe(BRANDING_MESSAGES.colorFormat);
  });

  it('the form schema lower-cases the colour, allows null and carries the same messages', () => {
    expect(updateBrandingSchema.parse({ accentColor: ' #1D4ED8 ' })).toEqual({ accentColor: '#1d4ed8' });
    expect(updateBrandingSchema.parse({ accentColor: null })).toEqual({ accentColor: null });
    const result = updateBrandingSchema.safeParse({ accentColor: '#ffff00' });
    expect(result.success).toBe(false);
    expect(english.say(result.error?.issues[0]?.message ?? '')).toContain('choose a darker colour');
  });
});

describe('accentColorMessage', () => {
  it('says what the colour field holds as it is typed: none, unreadable, malformed or readable with its ratio', () => {
    expect(accentColorMessage('')).toEqual({ ok: true, message: BRANDING_MESSAGES.colorNone });
    const readable = accentColorMessage('#1D4ED8');
    expect(readable.ok).toBe(true);
    expect(english.say(readable.message)).toBe(
      'White text on this colour has a contrast of 6.70:1: readable',
    );
    expect(accentColorMessage('#ffff00').ok).toBe(false);
    expect(english.say(accentColorMessage('#ffff00').message)).toContain('choose a darker colour');
    expect(accentColorMessage('#12')).toEqual({ ok: false, message: BRANDING_MESSAGES.colorFormat });
  });

  it('names the logo after the organisation', () => {
    expect(english.t(BRANDING_MESSAGES.logoAlt, { organization: 'Teal Harbour' })).toBe('Teal Harbour logo');
  });
});

describe('detectLogoType', () => {
  it('knows PNG, JPEG and WebP by their bytes', () => {
    expect(detectLogoType(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('image/png');
    expect(detectLogoType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(detectLogoType(bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 '))).toBe('image/webp');
  });

  it('refuses SVG, GIF and anything else', () => {
    expect(
      detectLogoType(bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')),
    ).toBeNull();
    expect(detectLogoType(bytes('<?xml version="1.0"?><svg/>'))).toBeNull();
    expect(detectLogoType(bytes('GIF89a', 1, 0))).toBeNull();
    expect(detectLogoType(bytes())).toBeNull();
  });
});
