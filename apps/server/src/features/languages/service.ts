import type { Language } from '@pulsecheck/shared/i18n/languages';
import { eq } from 'drizzle-orm';
import { requireOrganizationAdmin } from '../../auth/access';
import { audited, changedFields, type AuditBy } from '../../audit/record';
import { first } from '../../db/client';
import { user } from '../../db/schema/auth';
import { organizations } from '../../db/schema/organizations';
import type { AppDeps } from '../../lib/router';

type Deps = Pick<AppDeps, 'db'>;

/** The person's own language, or null while they follow their browser. */
export async function getAccountLanguage(deps: Deps, { userId }: { userId: string }) {
  const row = await first(deps.db.select({ language: user.language }).from(user).where(eq(user.id, userId)));
  return { language: (row?.language ?? null) as Language | null };
}

/** Keeps the person's choice: every screen and e-mail is then in it. */
export async function setAccountLanguage(
  deps: Deps,
  { userId, language }: { userId: string; language: Language | null },
) {
  await deps.db.update(user).set({ language }).where(eq(user.id, userId));
  return { language };
}

export async function getOrganizationLanguage(deps: Deps, { userId }: { userId: string }) {
  const organization = await requireOrganizationAdmin(deps.db, userId);
  return { defaultLanguage: await defaultLanguageOf(deps, organization.id) };
}

async function defaultLanguageOf(deps: Deps, organizationId: string) {
  const row = await first(
    deps.db
      .select({ defaultLanguage: organizations.defaultLanguage })
      .from(organizations)
      .where(eq(organizations.id, organizationId)),
  );
  return (row?.defaultLanguage ?? 'en') as Language;
}

/** The owner or an organisation admin sets the default; the change is in the audit log. */
export async function setOrganizationLanguage(
  deps: Deps,
  options: { userId: string; defaultLanguage: Language; by: AuditBy },
) {
  const organization = await requireOrganizationAdmin(deps.db, options.userId);
  const changes = changedFields(
    { defaultLanguage: await defaultLanguageOf(deps, organization.id) },
    { defaultLanguage: options.defaultLanguage },
  );
  if (Object.keys(changes).length > 0)
    await audited(
      deps.db,
      organization.id,
      options.by,
      {
        action: 'organization.settings-changed',
        targetType: 'organization',
        targetId: organization.id,
        targetLabel: organization.name,
        changes,
      },
      (tx) =>
        tx
          .update(organizations)
          .set({ defaultLanguage: options.defaultLanguage })
          .where(eq(organizations.id, organization.id)),
    );
  return { defaultLanguage: options.defaultLanguage };
}
