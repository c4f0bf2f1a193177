/** How loop screens write durations and counts. */

import { formats, t } from '@/lib/i18n';

/** What is left of a round: '2 days 3 hours left', '4 hours 10 minutes left', '8 minutes left', 'Closing now'. */
export function timeLeft(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return t('loops.closingNow');
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours > 0 ? t('loops.leftDaysHours', { days, hours }) : t('loops.leftDays', { days });
  if (hours > 0)
    return rest > 0 ? t('loops.leftHoursMinutes', { hours, minutes: rest }) : t('loops.leftHours', { hours });
  return t('loops.leftMinutes', { minutes: rest });
}

/** '3 of 8 answered'. */
export const answeredOf = (answered: number, audience: number) =>
  t('loops.answeredOf', { answered, audience });

export const responsesWord = (count: number) => t('loops.responses', { count });
export const membersWord = (count: number) => t('loops.members', { count });

/** A whole percentage (0 to 100) as the language writes it: '58%', '58 %'. */
export const percentText = (rate: number) => formats().percent(rate / 100);
