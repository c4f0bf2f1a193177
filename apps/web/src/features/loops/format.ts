/** How loop screens write durations and counts. */

import { countOf } from '@pulsecheck/shared/words/plural';

/** What is left of a round: '2 days 3 hours left', '4 hours 10 minutes left', '8 minutes left', 'Closing now'. */
export function timeLeft(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'Closing now';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return `${countOf(days, 'day')}${hours > 0 ? ` ${countOf(hours, 'hour')}` : ''} left`;
  if (hours > 0) return `${countOf(hours, 'hour')}${rest > 0 ? ` ${countOf(rest, 'minute')}` : ''} left`;
  return `${countOf(rest, 'minute')} left`;
}

/** '3 of 8 answered'. */
export const answeredOf = (answered: number, audience: number) => `${answered} of ${audience} answered`;

export const responsesWord = (n: number) => countOf(n, 'response');
export const membersWord = (n: number) => countOf(n, 'member');
