import { currentLocale, formats, t } from './i18n';

/**
 * How the app writes dates and times: in the app's language, in the reader's time zone; calendar days
 * (YYYY-MM-DD, no time zone) as written.
 */
/*
 * In English, dates are written by hand, exactly as Intl.DateTimeFormat('en', { dateStyle: 'medium' }) writes
 * them (a test holds them to it): making a format loads the browser's locale data, tens of milliseconds on a
 * slow phone, in the middle of rendering the results. Other languages, and the date and time, keep Intl, each
 * format made when first used (lib/i18n.tsx).
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function medium(year: number, month: number, dayOfMonth: number) {
  if (Number.isNaN(year)) throw new RangeError('Invalid time value');
  return `${MONTHS[month]} ${dayOfMonth}, ${year}`;
}

/** A timestamp's date: 'Nov 23, 2026' ('23.11.2026' in German). */
export const formatDate = (iso: string) => {
  if (currentLocale() !== 'en') return formats().date(iso);
  const at = new Date(iso);
  return medium(at.getFullYear(), at.getMonth(), at.getDate());
};

/** A timestamp's date and time: 'Nov 23, 2026, 11:48 AM'. */
export const formatDateTime = (iso: string) =>
  formats().date(iso, { dateStyle: 'medium', timeStyle: 'short' });

/** A calendar day (YYYY-MM-DD), the same date wherever the reader is: 'Jan 31, 2027'. */
export const formatDay = (value: string) => {
  if (currentLocale() !== 'en')
    return formats().date(`${value}T00:00:00Z`, { dateStyle: 'medium', timeZone: 'UTC' });
  const at = new Date(`${value}T00:00:00Z`);
  return medium(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
};

/** How long ago, for lists of recent things: 'just now', '5 min ago', '3 h ago', then the date. */
export function formatTimeAgo(iso: string, now = Date.now()) {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return t('common.justNow');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('common.minutesAgo', { minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 24) return t('common.hoursAgo', { hours });
  return formatDate(iso);
}
