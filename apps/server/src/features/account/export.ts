import { ACCOUNT_MESSAGES, resolvePreferences } from '@pulsecheck/shared/account/schemas';
import { notFound } from '../../lib/app-error';
import type { AppDeps } from '../../lib/router';
import { personalData } from './export-queries';

/** What the file says about itself, so the person reading it knows what is and is not in it and why. */
export const EXPORT_NOTE =
  'Everything Pulsecheck stores about you. Your answers to anonymous health checks and anonymous loops, and ' +
  'comments you wrote anonymously, are not included: they are not linked to you where anyone can see them, and ' +
  'this file keeps that promise. Other people’s names, e-mail addresses and answers are never included. Your profile photo ' +
  'is at profile.photo.url (signed in).';

/** The file name of an export made on `now` (its UTC date). */
export const exportFileName = (now: Date) => `pulsecheck-data-${now.toISOString().slice(0, 10)}.json`;

/** "Download my data": the person's data by the rule in docs/security.md, as one JSON document. */
export async function exportPersonalData(deps: Pick<AppDeps, 'db'>, userId: string, now = new Date()) {
  const data = await personalData(deps.db, userId);
  if (!data) throw notFound(ACCOUNT_MESSAGES.loadFailed);
  const { storedNotificationPreferences, activeWorkspace, ...rest } = data;
  return {
    format: 'pulsecheck-personal-data/1',
    exportedAt: now.toISOString(),
    note: EXPORT_NOTE,
    ...rest,
    preferences: {
      activeWorkspace,
      notifications: resolvePreferences(storedNotificationPreferences),
    },
  };
}
