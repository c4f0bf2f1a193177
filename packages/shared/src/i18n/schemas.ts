import { z } from 'zod';
import { LANGUAGES } from './languages';

/** One of the five languages. */
export const languageSchema = z.enum(LANGUAGES);

/** A person's language: one of the five, or null to follow their browser (and, in e-mails, the organisation). */
export const accountLanguageSchema = z.object({ language: languageSchema.nullable() });
export type AccountLanguage = z.infer<typeof accountLanguageSchema>;

/** The organisation's default language: e-mails to people who chose none are written in it. */
export const organizationLanguageSchema = z.object({ defaultLanguage: languageSchema });
export type OrganizationLanguage = z.infer<typeof organizationLanguageSchema>;
