import { answeredPercent, PARTICIPATION_RATINGS } from '@pulsecheck/shared/participation/rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAdmin, signedInParticipant } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { createCheck } from '../../test/health-checks';

/**
 * The autosave rules have one home, the SQL statement of saveInterimResponsesBatch; the screens show progress with
 * the TypeScript rule `answeredPercent`. This checks that the two compute the same progress for any answers.
 */

const ctx = useTestContext();

describe('autosave progress', () => {
  it('is what answeredPercent says, for any set of answered components', async () => {
    const admin = await createAdmin(ctx);
    const check = await createCheck(ctx, admin, { componentCount: 7 });
    const ids = check.components.map((c) => c.id);
    const person = await signedInParticipant(ctx, check, 'in_progress');
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(ids),
        fc.constantFrom(...PARTICIPATION_RATINGS),
        async (answered, rating) => {
          const votes = Object.fromEntries(answered.map((id) => [id, rating]));
          const response = await ctx.call(
            person.jar,
            'PUT',
            `/api/health-checks/${check.healthCheckId}/responses`,
            { votes, comments: {}, last_component_index: 0 },
          );
          expect(response.status).toBe(200);
          const { progress } = (await response.json()) as { progress: number };
          expect(progress).toBe(answeredPercent(ids, votes));
        },
      ),
      { numRuns: 25 },
    );
  });
});
