/**
 * How the app writes dates and times: English, like the rest of its copy, in the reader's time zone; calendar
 * days (YYYY-MM-DD, no time zone) as written.
 */
/*
 * Dates are written by hand, exactly as Intl.DateTimeFormat('en', { dateStyle: 'medium' }) writes them (a test
 * holds them to it): making a format loads the browser's locale data, tens of milliseconds on a slow phone, in
 * the middle of rendering the results. The date and time keeps Intl, made when first used.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function medium(year: number, month: number, dayOfMonth: number) {
  if (Number.isNaN(year)) throw new RangeError('Invalid time value');
  return `${MONTHS[month]} ${dayOfMonth}, ${year}`;
}

let dateTime: Intl.DateTimeFormat | undefined;

/** A timestamp's date: 'Nov 23, 2026'. */
export const formatDate = (iso: string) => {
  const at = new Date(iso);
  return medium(at.getFullYear(), at.getMonth(), at.getDate());
};

/** A timestamp's date and time: 'Nov 23, 2026, 11:48 AM'. */
export const formatDateTime = (iso: string) =>
  (dateTime ??= new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' })).format(
    new Date(iso),
  );

/** A calendar day (YYYY-MM-DD), the same date wherever the reader is: 'Jan 31, 2027'. */
export const formatDay = (value: string) => {
  const at = new Date(`${value}T00:00:00Z`);
  return medium(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
};

/** How long ago, for lists of recent things: 'just now', '5 min ago', '3 h ago', then the date. */
export function formatTimeAgo(iso: string, now = Date.now()) {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return formatDate(iso);
}
