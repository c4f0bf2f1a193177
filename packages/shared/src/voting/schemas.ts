import { z } from 'zod';
import { ratingCountsSchema } from '../results/schemas';

export const VOTING_MESSAGES = {
  notOpen: 'voting.notOpen',
  notEligible: 'voting.notEligible',
  /** `{ count }`: the dots a person may place. */
  tooMany: 'voting.tooMany',
  foreignComponent: 'voting.foreignComponent',
  saved: 'voting.saved',
  ratingClosed: 'voting.ratingClosed',
} as const;

/** `{ componentId: dots }`; the whole allocation of the caller, replacing the previous one. */
export const voteAllocationSchema = z.record(
  z.uuid(VOTING_MESSAGES.foreignComponent),
  z.number().int().min(0).max(10),
);
export const putVotesSchema = z.strictObject({ allocation: voteAllocationSchema });
export type PutVotesInput = z.infer<typeof putVotesSchema>;

export const votingComponentSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  category: z.string(),
  /** Null when the check hides results from participants (showResultsAfterVoting = false). */
  counts: ratingCountsSchema.nullable(),
});

export const votingStateSchema = z.object({
  title: z.string(),
  phase: z.enum(['collect', 'vote', 'summarize', 'plan']),
  votesPerPerson: z.number().int(),
  eligible: z.boolean(),
  allocation: z.record(z.string(), z.number().int()),
  used: z.number().int(),
  tally: z.object({ voted: z.number().int(), eligible: z.number().int() }),
  components: z.array(votingComponentSchema),
});
export type VotingState = z.infer<typeof votingStateSchema>;

export const dotsUsed = (allocation: Record<string, number>) =>
  Object.values(allocation).reduce((sum, n) => sum + n, 0);
