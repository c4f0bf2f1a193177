/**
 * An accent colour's form, `#rrggbb`, without zod: the participant screens check a colour before styling with it
 * and must not load the schemas (rules.ts) in their first paint.
 */
export const HEX_COLOR = /^#[0-9a-f]{6}$/i;
