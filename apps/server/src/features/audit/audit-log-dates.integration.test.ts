import { describe, expect, it } from 'vitest';
import { AUDIT_MESSAGES } from '@pulsecheck/shared/audit/log';
import type { WorkspacesResponse } from '@pulsecheck/shared/workspaces/schemas';
import { createAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { english, json } from '../../test/requests';

/**
 * The audit log's date range as a shared link carries it (the screen keeps its filters in the URL): a day that does
 * not exist is refused at its field with 400, never passed to the database (which would answer 500).
 */

const ctx = useTestContext();

describe('audit log date filters', () => {
  it('refuses days that do not exist, in the list and the export, and takes real ones', async () => {
    const owner = await createAdmin(ctx);
    const { workspaces } = await json<WorkspacesResponse>(
      await ctx.call(owner.jar, 'GET', '/api/workspaces'),
    );
    const base = `/api/organizations/${workspaces[0]!.organizationId}/audit-log`;
    for (const query of ['from=2026-02-31', 'to=2026-02-30', 'from=0000-01-01', 'to=2026-04-31']) {
      for (const path of [`${base}?${query}`, `${base}/export?format=csv&${query}`]) {
        const response = await ctx.call(owner.jar, 'GET', path);
        expect(response.status, `${path}: ${await response.clone().text()}`).toBe(400);
        const body = await json<{ error: { fields: Record<string, string> } }>(response);
        expect(Object.values(body.error.fields)).toEqual([english(AUDIT_MESSAGES.dateInvalid)]);
      }
    }
    for (const query of ['from=2024-02-29&to=2026-12-31', 'from=0001-01-01']) {
      expect((await ctx.call(owner.jar, 'GET', `${base}?${query}`)).status).toBe(200);
    }
  });
});
