import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import {
  BRANDING_MESSAGES,
  detectLogoType,
  LOGO_MAX_BYTES,
  logoPath,
  type Branding,
} from '@pulsecheck/shared/branding/rules';
import type { AuditChanges } from '@pulsecheck/shared/audit/log';
import { audited, changedFields, type AuditBy, type AuditRecord } from '../../audit/record';
import { requireOrganizationAdmin } from '../../auth/access';
import type { Db } from '../../db/client';
import { AppError, invalid, notFound } from '../../lib/app-error';
import type { AppDeps } from '../../lib/router';
import * as q from './queries';

type Deps = Pick<AppDeps, 'db'>;

/**
 * The branding participants' screens and e-mails show for an organisation (its name, logo URL and accent colour,
 * nothing else); null for an unknown id. Every participant-facing payload takes it from here.
 */
export async function brandingOf(db: Db, organizationId: string): Promise<Branding | null> {
  const row = await q.findBranding(db, organizationId);
  return row ? toBranding(row) : null;
}

const toBranding = (row: { name: string; logoId: string | null; accentColor: string | null }): Branding => ({
  organizationName: row.name,
  logoUrl: row.logoId ? logoPath(row.logoId) : null,
  accentColor: row.accentColor,
});

/** The branding of the organisation a workspace (and so its checks and loops) belongs to; null for an unknown one. */
export async function brandingOfWorkspace(db: Db, workspaceId: string): Promise<Branding | null> {
  return (await brandingOfWorkspaces(db, [workspaceId])).get(workspaceId) ?? null;
}

/** The branding of each workspace's organisation, by workspace id, in one query (a batch of e-mails loads it once). */
export async function brandingOfWorkspaces(db: Db, workspaceIds: string[]): Promise<Map<string, Branding>> {
  const rows = await q.findBrandingOfWorkspaces(db, [...new Set(workspaceIds)]);
  return new Map(rows.map((row) => [row.workspaceId, toBranding(row)]));
}

/** The branding of the organisation a health check belongs to; null for an unknown check. */
export async function brandingOfHealthCheck(db: Db, healthCheckId: string): Promise<Branding | null> {
  const workspaceId = await q.findWorkspaceOfHealthCheck(db, healthCheckId);
  return workspaceId ? brandingOfWorkspace(db, workspaceId) : null;
}

/**
 * The branding an e-mail shows: the logo as an absolute URL of this app (docs/decisions/0018-custom-branding.md),
 * null when the organisation has neither a logo nor an accent colour (the e-mail then looks as before).
 */
export function mailBranding(appUrl: string, branding: Branding | null | undefined): Branding | null {
  if (!branding || (!branding.logoUrl && !branding.accentColor)) return null;
  const base = appUrl.replace(/\/$/, '');
  return { ...branding, logoUrl: branding.logoUrl ? `${base}${branding.logoUrl}` : null };
}

/** `mailBranding` of the organisation a workspace belongs to. */
export async function mailBrandingOfWorkspace(
  deps: { db: Db; config: { appUrl: string } },
  workspaceId: string,
) {
  return mailBranding(deps.config.appUrl, await brandingOfWorkspace(deps.db, workspaceId));
}

/** The branding of the organisation the user administers (its owner and organisation admins: 403 for others). */
export async function getBranding(deps: Deps, { userId }: { userId: string }) {
  const organization = await requireOrganizationAdmin(deps.db, userId);
  return { branding: (await brandingOf(deps.db, organization.id))! };
}

const brandingChanged = (organization: { id: string; name: string }, changes: AuditChanges): AuditRecord => ({
  action: 'organization.settings-changed',
  targetType: 'organization',
  targetId: organization.id,
  targetLabel: organization.name,
  changes,
});

/** Saves the accent colour, already held to the shared contrast rule by the body's schema; null removes it. */
export async function updateBranding(
  deps: Deps,
  options: { userId: string; accentColor: string | null; by: AuditBy },
) {
  const organization = await requireOrganizationAdmin(deps.db, options.userId);
  const before = await brandingOf(deps.db, organization.id);
  const changes = changedFields({ accentColor: before?.accentColor }, { accentColor: options.accentColor });
  if (Object.keys(changes).length > 0)
    await audited(deps.db, organization.id, options.by, brandingChanged(organization, changes), (tx) =>
      q.setAccentColor(tx, organization.id, options.accentColor),
    );
  return { branding: (await brandingOf(deps.db, organization.id))! };
}

/** Accepts PNG, JPEG or WebP by their bytes (never SVG), at most LOGO_MAX_BYTES; the type stored is the detected one. */
export async function uploadLogo(
  deps: Deps,
  options: { userId: string; read: () => Promise<Uint8Array | null>; by: AuditBy },
) {
  const organization = await requireOrganizationAdmin(deps.db, options.userId);
  const bytes = await options.read();
  if (!bytes || bytes.length === 0)
    throw invalid(BRANDING_MESSAGES.logoMissing, { logo: BRANDING_MESSAGES.logoMissing });
  if (bytes.length > LOGO_MAX_BYTES) {
    throw new AppError('payload_too_large', BRANDING_MESSAGES.logoTooLarge, {
      logo: BRANDING_MESSAGES.logoTooLarge,
    });
  }
  const type = detectLogoType(bytes);
  if (!type) throw invalid(BRANDING_MESSAGES.logoType, { logo: BRANDING_MESSAGES.logoType });
  await audited(
    deps.db,
    organization.id,
    options.by,
    brandingChanged(organization, { logo: 'uploaded' }),
    (tx) => q.replaceLogo(tx, organization.id, type, Buffer.from(bytes)),
  );
  return { branding: (await brandingOf(deps.db, organization.id))! };
}

export async function removeLogo(deps: Deps, { userId, by }: { userId: string; by: AuditBy }) {
  const organization = await requireOrganizationAdmin(deps.db, userId);
  await audited(deps.db, organization.id, by, brandingChanged(organization, { logo: 'removed' }), (tx) =>
    q.removeLogo(tx, organization.id),
  );
  return { branding: (await brandingOf(deps.db, organization.id))! };
}

export async function getLogo(deps: Deps, id: string) {
  const row = await q.findLogo(deps.db, id);
  if (!row) throw notFound(NOT_FOUND_MESSAGES.logo);
  return row;
}
