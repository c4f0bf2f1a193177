import { loginReturningTo } from '@pulsecheck/shared/auth/links';
import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import { BRANDING_MESSAGES, HEX_COLOR, type Branding } from '@pulsecheck/shared/branding/rules';
import { DEFAULT_LANGUAGE, type Locale } from '@pulsecheck/shared/i18n/languages';
import type { Translator } from '@pulsecheck/shared/i18n/translate';
import { translatorFor } from '../lib/i18n';

/** E-mail bodies: a plain layout with one call to action, as HTML and as text. */
export type MailContent = { subject: string; html: string; text: string };

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );

/** A row of one-click answers: a question, its values as links, its two ends labelled. */
export type MailChoices = {
  prompt: string;
  /**
   * The language of the prompt and its ends when it is not the reader's (no translation into theirs), with the
   * note that says so (decision 0027, 'Content in several languages').
   */
  shownIn?: { language: string; note: string } | undefined;
  ends: { low: string; high: string };
  links: { label: string; url: string }[];
};

/** The colours of the e-mail: the organisation's accent colour (held to 4.5:1 against white) or Pulsecheck's. */
type Palette = { accent: string; link: string };
const DEFAULT_PALETTE: Palette = { accent: '#4f46e5', link: '#4338ca' };

function paletteOf(branding: Branding | null | undefined): Palette {
  const accent = branding?.accentColor;
  // The colour was checked when saved; checked again here as it goes into a style attribute.
  return accent && HEX_COLOR.test(accent) ? { accent, link: accent } : DEFAULT_PALETTE;
}

/** The top of the e-mail: the organisation's logo (an absolute URL of this app), or the Pulsecheck name. */
function renderMasthead(branding: Branding | null | undefined, palette: Palette, t: Translator): string {
  if (branding?.logoUrl) {
    const alt = t.t(BRANDING_MESSAGES.logoAlt, { organization: branding.organizationName });
    return `<p style="margin:0 0 24px"><img src="${escapeHtml(branding.logoUrl)}" alt="${escapeHtml(alt)}" height="48" style="display:block;height:48px;width:auto;max-width:240px;border:0"></p>`;
  }
  return `<p style="margin:0 0 24px;font-weight:700;font-size:18px;color:${palette.accent}">Pulsecheck</p>`;
}

function renderChoices(choices: MailChoices, palette: Palette, t: Translator): string {
  const cell = (link: { label: string; url: string }) =>
    `<td style="padding:2px"><a href="${escapeHtml(link.url)}" aria-label="${escapeHtml(t.t('mail.answerChoice', { label: link.label }))}" style="display:inline-block;min-width:28px;text-align:center;border:1px solid ${palette.accent};color:${palette.link};text-decoration:none;padding:8px 6px;border-radius:6px;font-weight:600">${escapeHtml(link.label)}</a></td>`;
  const lang = choices.shownIn ? ` lang="${escapeHtml(choices.shownIn.language)}"` : '';
  const note = choices.shownIn
    ? `<p style="margin:0 0 8px;font-size:12px;color:#475569">${escapeHtml(choices.shownIn.note)}</p>\n`
    : '';
  return `<p style="margin:16px 0 8px;font-weight:600"${lang}>${escapeHtml(choices.prompt)}</p>
${note}<table role="presentation" cellpadding="0" cellspacing="0"><tr>${choices.links.map(cell).join('')}</tr></table>
<p style="margin:4px 0 16px;font-size:12px;color:#475569"${lang}>${escapeHtml(choices.links[0]?.label ?? '')} = ${escapeHtml(choices.ends.low)}, ${escapeHtml(choices.links.at(-1)?.label ?? '')} = ${escapeHtml(choices.ends.high)}</p>`;
}

export function renderMail(options: {
  subject: string;
  heading: string;
  paragraphs: string[];
  /** One-click answers, above the call to action. */
  choices?: MailChoices;
  action?: { label: string; url: string };
  footer?: string;
  /**
   * The organisation the e-mail is sent on behalf of (`mailBranding` in features/branding): its logo and accent
   * colour in the HTML part; the text part is the same with or without it.
   */
  branding?: Branding | null;
  /** The language of the recipient (mail/language.ts): the e-mail's own words and its `lang`; English by default. */
  translator?: Translator;
}): MailContent {
  const { subject, heading, paragraphs, choices, action, footer, branding } = options;
  const t = options.translator ?? translatorFor(DEFAULT_LANGUAGE);
  const palette = paletteOf(branding);
  const html = `<!doctype html>
<html lang="${t.locale}"><body style="margin:0;background:#f8fafc;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:560px;background:#ffffff;border-radius:12px;border:1px solid #e2e8f0" cellpadding="0" cellspacing="0">
<tr><td style="padding:32px">
${renderMasthead(branding, palette, t)}
<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(heading)}</h1>
${paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`).join('\n')}
${choices ? renderChoices(choices, palette, t) : ''}
${
  action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:${palette.accent};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#475569">${escapeHtml(t.t('mail.openLink'))} <a href="${escapeHtml(action.url)}" style="color:${palette.link}">${escapeHtml(action.url)}</a></p>`
    : ''
}
${footer ? `<p style="margin:24px 0 0;font-size:12px;color:#64748b">${escapeHtml(footer)}</p>` : ''}
</td></tr></table></td></tr></table></body></html>`;
  const text = [
    heading,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(choices
      ? [
          `${choices.prompt} (${choices.links[0]?.label ?? ''} = ${choices.ends.low}, ${choices.links.at(-1)?.label ?? ''} = ${choices.ends.high})`,
          ...(choices.shownIn ? [choices.shownIn.note] : []),
          ...choices.links.map((link) => `${link.label}: ${link.url}`),
          '',
        ]
      : []),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    ...(footer ? [footer] : []),
  ]
    .join('\n')
    .trim();
  return { subject, html, text };
}

/** The translator of `locale`, English when none is given. */
const tr = (locale: Locale = DEFAULT_LANGUAGE) => translatorFor(locale);

export const verificationMail = (name: string, url: string, locale?: Locale) => {
  const t = tr(locale);
  return renderMail({
    subject: t.t('mail.verification.subject'),
    heading: t.t('mail.verification.heading', { name }),
    paragraphs: [t.t('mail.verification.body')],
    action: { label: t.t('mail.verification.action'), url },
    footer: t.t('mail.verification.footer'),
    translator: t,
  });
};

export const resetPasswordMail = (name: string, url: string, locale?: Locale) => {
  const t = tr(locale);
  return renderMail({
    subject: t.t('mail.reset.subject'),
    heading: t.t('mail.reset.heading'),
    paragraphs: [t.t('mail.reset.body', { name })],
    action: { label: t.t('mail.reset.action'), url },
    footer: t.t('mail.reset.footer'),
    translator: t,
  });
};

/** To the owner of a verified account when someone signs up with its address (the sign-up changes nothing). */
export const signupAttemptMail = (
  name: string,
  appUrl: string,
  joinHealthCheckId?: string,
  locale?: Locale,
) => {
  const t = tr(locale);
  return renderMail({
    subject: t.t('mail.signupAttempt.subject'),
    heading: t.t('mail.signupAttempt.heading'),
    paragraphs: [
      t.t('mail.signupAttempt.body', { name }),
      t.t(joinHealthCheckId ? 'mail.signupAttempt.ifYouJoin' : 'mail.signupAttempt.ifYou'),
    ],
    action: {
      label: t.t(joinHealthCheckId ? 'mail.signupAttempt.actionJoin' : 'mail.signupAttempt.action'),
      url: `${appUrl}${joinHealthCheckId ? loginReturningTo(`/join/${joinHealthCheckId}`) : '/login'}`,
    },
    footer: t.t('mail.signupAttempt.footer'),
    translator: t,
  });
};

/** To the owner of an account whose sign-in was paused after too many failed attempts (once per pause). */
export const accountLockedMail = (options: {
  name: string;
  failures: number;
  minutes: number;
  url: string;
  locale?: Locale;
}) => {
  const t = tr(options.locale);
  return renderMail({
    subject: t.t('mail.locked.subject'),
    heading: t.t('mail.locked.heading'),
    paragraphs: [
      t.t('mail.locked.body', { name: options.name, failures: options.failures, minutes: options.minutes }),
      t.t('mail.locked.ifYou'),
      t.t('mail.locked.ifNotYou'),
    ],
    action: { label: t.t('mail.locked.action'), url: options.url },
    footer: t.t('mail.locked.footer'),
    translator: t,
  });
};

/** To the owner of an account a passkey was just added to (issue 30): if it was not them, how to take it back. */
export const passkeyAddedMail = (options: {
  name: string;
  passkey: string;
  appUrl: string;
  locale?: Locale;
}) => {
  const t = tr(options.locale);
  return renderMail({
    subject: t.t('mail.passkeyAdded.subject'),
    heading: t.t('mail.passkeyAdded.heading'),
    paragraphs: [
      t.t('mail.passkeyAdded.body', { name: options.name, passkey: options.passkey }),
      // The option's label is the one the password form shows (the shared catalogue's).
      t.t('mail.passkeyAdded.ifNotYou', { option: t.t(SECURITY_MESSAGES.alsoRemovePasskeys) }),
    ],
    action: { label: t.t('mail.passkeyAdded.action'), url: options.appUrl },
    footer: t.t('mail.passkeyAdded.footer'),
    translator: t,
  });
};

/** To an organisation's owner when the daily re-check no longer finds a domain's SSO verification record. */
export const ssoDomainLostMail = (options: {
  name: string;
  domain: string;
  record: string;
  url: string;
  locale?: Locale;
}) => {
  const t = tr(options.locale);
  const { name, domain, record } = options;
  return renderMail({
    subject: t.t('mail.ssoDomainLost.subject', { domain }),
    heading: t.t('mail.ssoDomainLost.heading', { domain }),
    paragraphs: [t.t('mail.ssoDomainLost.body', { name, domain, record }), t.t('mail.ssoDomainLost.howTo')],
    action: { label: t.t('mail.ssoDomainLost.action'), url: options.url },
    footer: t.t('mail.ssoDomainLost.footer'),
    translator: t,
  });
};

/** To a webhook's owner when its deliveries failed for 24 hours and it was paused (features/webhooks). */
export const webhookPausedMail = (options: {
  name: string;
  url: string;
  settingsUrl: string;
  locale?: Locale;
}) => {
  const t = tr(options.locale);
  return renderMail({
    subject: t.t('mail.webhookPaused.subject'),
    heading: t.t('mail.webhookPaused.heading'),
    paragraphs: [
      t.t('mail.webhookPaused.body', { name: options.name, url: options.url }),
      t.t('mail.webhookPaused.howTo'),
    ],
    action: { label: t.t('mail.webhookPaused.action'), url: options.settingsUrl },
    footer: t.t('mail.webhookPaused.footer'),
    translator: t,
  });
};
