/**
 * How the app writes dates and times: English, like the rest of its copy, in the reader's time zone; calendar
 * days (YYYY-MM-DD, no time zone) as written.
 */
const date = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });
const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const day = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

/** A timestamp's date: 'Nov 23, 2026'. */
export const formatDate = (iso: string) => date.format(new Date(iso));

/** A timestamp's date and time: 'Nov 23, 2026, 11:48 AM'. */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

/** A calendar day (YYYY-MM-DD), the same date wherever the reader is: 'Jan 31, 2027'. */
export const formatDay = (value: string) => day.format(new Date(`${value}T00:00:00Z`));

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
