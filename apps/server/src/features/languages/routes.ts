import { accountLanguageSchema, organizationLanguageSchema } from '@pulsecheck/shared/i18n/schemas';
import { routes } from '../../lib/openapi';
import * as service from './service';

const languages = routes('languages');

languages
  .call(
    'get /account/language',
    "The signed-in person's language, or null while they follow their browser",
    { ok: [200, accountLanguageSchema, 'Their language'] },
    service.getAccountLanguage,
  )
  .call(
    'put /account/language',
    'Choose the language of every screen and e-mail (en, de, fr, es or pt-BR), or null to follow the browser',
    { body: accountLanguageSchema, ok: [200, accountLanguageSchema, 'Saved'] },
    service.setAccountLanguage,
  )
  .call(
    'get /organization/language',
    "The organisation's default language (its owner and organisation admins)",
    { ok: [200, organizationLanguageSchema, 'The default language'], errors: [403, 404] },
    service.getOrganizationLanguage,
  )
  .call(
    'put /organization/language',
    "Set the organisation's default language: e-mails to people who chose none, and new members' first visit",
    { body: organizationLanguageSchema, ok: [200, organizationLanguageSchema, 'Saved'], errors: [403, 404] },
    service.setOrganizationLanguage,
  );

export const languageRoutes = languages.router;
