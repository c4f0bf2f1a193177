import { loginReturningTo } from '@pulsecheck/shared/auth/links';
import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import { brandLogoAlt, HEX_COLOR, type Branding } from '@pulsecheck/shared/branding/rules';

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
function renderMasthead(branding: Branding | null | undefined, palette: Palette): string {
  if (branding?.logoUrl) {
    return `<p style="margin:0 0 24px"><img src="${escapeHtml(branding.logoUrl)}" alt="${escapeHtml(brandLogoAlt(branding.organizationName))}" height="48" style="display:block;height:48px;width:auto;max-width:240px;border:0"></p>`;
  }
  return `<p style="margin:0 0 24px;font-weight:700;font-size:18px;color:${palette.accent}">Pulsecheck</p>`;
}

function renderChoices(choices: MailChoices, palette: Palette): string {
  const cell = (link: { label: string; url: string }) =>
    `<td style="padding:2px"><a href="${escapeHtml(link.url)}" aria-label="Answer ${escapeHtml(link.label)}" style="display:inline-block;min-width:28px;text-align:center;border:1px solid ${palette.accent};color:${palette.link};text-decoration:none;padding:8px 6px;border-radius:6px;font-weight:600">${escapeHtml(link.label)}</a></td>`;
  return `<p style="margin:16px 0 8px;font-weight:600">${escapeHtml(choices.prompt)}</p>
<table role="presentation" cellpadding="0" cellspacing="0"><tr>${choices.links.map(cell).join('')}</tr></table>
<p style="margin:4px 0 16px;font-size:12px;color:#475569">${escapeHtml(choices.links[0]?.label ?? '')} = ${escapeHtml(choices.ends.low)}, ${escapeHtml(choices.links.at(-1)?.label ?? '')} = ${escapeHtml(choices.ends.high)}</p>`;
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
}): MailContent {
  const { subject, heading, paragraphs, choices, action, footer, branding } = options;
  const palette = paletteOf(branding);
  const html = `<!doctype html>
<html lang="en"><body style="margin:0;background:#f8fafc;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:560px;background:#ffffff;border-radius:12px;border:1px solid #e2e8f0" cellpadding="0" cellspacing="0">
<tr><td style="padding:32px">
${renderMasthead(branding, palette)}
<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(heading)}</h1>
${paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`).join('\n')}
${choices ? renderChoices(choices, palette) : ''}
${
  action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:${palette.accent};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#475569">Or open this link: <a href="${escapeHtml(action.url)}" style="color:${palette.link}">${escapeHtml(action.url)}</a></p>`
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

export const verificationMail = (name: string, url: string) =>
  renderMail({
    subject: 'Verify your email for Pulsecheck',
    heading: `Welcome, ${name}`,
    paragraphs: ['Confirm your email address to finish creating your Pulsecheck account.'],
    action: { label: 'Verify email', url },
    footer: 'The link expires in 24 hours. If you did not sign up, ignore this email.',
  });

export const resetPasswordMail = (name: string, url: string) =>
  renderMail({
    subject: 'Reset your Pulsecheck password',
    heading: 'Reset your password',
    paragraphs: [`Hi ${name}, we received a request to reset your password.`],
    action: { label: 'Choose a new password', url },
    footer:
      'The link expires in 1 hour. If you did not ask for this, ignore this email: your password stays as it is.',
  });

/** To the owner of a verified account when someone signs up with its address (the sign-up changes nothing). */
export const signupAttemptMail = (name: string, appUrl: string, joinHealthCheckId?: string) =>
  renderMail({
    subject: 'Someone tried to sign up to Pulsecheck with your email',
    heading: 'You already have a Pulsecheck account',
    paragraphs: [
      `Hi ${name}, someone just tried to create a Pulsecheck account with this email address. Your account already exists, so nothing was changed: your password and data stay as they are.`,
      joinHealthCheckId
        ? 'If it was you, sign in with the button below: you will join the health check you signed up for. If you forgot your password, choose "Forgot password?" on the sign-in page to get a reset link.'
        : 'If it was you, sign in instead. If you forgot your password, choose "Forgot password?" on the sign-in page to get a reset link.',
    ],
    action: {
      label: joinHealthCheckId ? 'Sign in and join' : 'Sign in',
      url: `${appUrl}${joinHealthCheckId ? loginReturningTo(`/join/${joinHealthCheckId}`) : '/login'}`,
    },
    footer:
      'If it was not you, you can ignore this email. Nobody can use your account without your password.',
  });

/** To the owner of an account whose sign-in was paused after too many failed attempts (once per pause). */
export const accountLockedMail = (options: {
  name: string;
  failures: number;
  minutes: number;
  url: string;
}) =>
  renderMail({
    subject: 'Sign-in to your Pulsecheck account was paused',
    heading: 'Too many failed sign-in attempts',
    paragraphs: [
      `Hi ${options.name}, someone tried to sign in to your Pulsecheck account with a wrong password ${options.failures} times, so we paused sign-in to your account for up to ${options.minutes} minutes.`,
      'If it was you, wait and try again, or choose a new password: a password reset lets you sign in right away.',
      'If it was not you, your password is still safe as long as nobody else knows it. If you reuse it elsewhere, choose a new one.',
    ],
    action: { label: 'Go to sign-in', url: options.url },
    footer:
      'You get this email once per pause. Nobody can lock you out for good: sign-in opens again by itself.',
  });

/** To the owner of an account a passkey was just added to (issue 30): if it was not them, how to take it back. */
export const passkeyAddedMail = (options: { name: string; passkey: string; appUrl: string }) =>
  renderMail({
    subject: 'A passkey was added to your account',
    heading: 'A passkey was added to your account',
    paragraphs: [
      `Hi ${options.name}, the passkey "${options.passkey}" was just added to your Pulsecheck account. It signs in without your password.`,
      `If it was not you, change your password now and tick "${SECURITY_MESSAGES.alsoRemovePasskeys}": that removes the passkey and ends every other sign-in. Then check the Security tab of your account settings.`,
    ],
    action: { label: 'Open Pulsecheck', url: options.appUrl },
    footer: 'You get this email whenever a passkey is added to your account.',
  });

/** To an organisation's owner when the daily re-check no longer finds a domain's SSO verification record. */
export const ssoDomainLostMail = (options: { name: string; domain: string; record: string; url: string }) =>
  renderMail({
    subject: `Single sign-on stopped for ${options.domain}`,
    heading: `The verification record of ${options.domain} is gone`,
    paragraphs: [
      `Hi ${options.name}, Pulsecheck checks every day that your organisation still controls the domains its single sign-on covers. Today the TXT record "${options.record}" was not found on ${options.domain}, so single sign-on stopped for addresses at ${options.domain}.`,
      "To switch it back on, publish the record again in the domain's DNS and choose 'Verify domain' on the Security tab.",
    ],
    action: { label: 'Open the Security tab', url: options.url },
    footer: 'If your organisation no longer uses this domain, remove it from the single sign-on settings.',
  });

/** To a webhook's owner when its deliveries failed for 24 hours and it was paused (features/webhooks). */
export const webhookPausedMail = (options: { name: string; url: string; settingsUrl: string }) =>
  renderMail({
    subject: 'A webhook was paused after 24 hours of failed deliveries',
    heading: 'A webhook was paused',
    paragraphs: [
      `Hi ${options.name}, Pulsecheck could not deliver an event to ${options.url} for 24 hours, so the webhook was paused. Events that happen while it is paused are not sent to it.`,
      "Check that the address answers with a 2xx status, then choose 'Resume' in the webhook's settings; its 'Deliveries' list shows each attempt's response.",
    ],
    action: { label: 'Open the webhook settings', url: options.settingsUrl },
    footer: 'You get this email because you created this webhook or own its organisation.',
  });
