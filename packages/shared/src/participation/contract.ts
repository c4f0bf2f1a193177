import { z } from 'zod';
import { isUuid } from '../api/ids';
import { brandingSchema } from '../branding/rules';
import { PHASES } from '../health-checks/rules';
import { FOLLOW_UP_ANSWERS, FOLLOW_UP_MESSAGES } from '../action-items/follow-up';
import {
  COMMENT_MAX,
  COMPONENTS_MAX,
  PARTICIPANT_STATUSES,
  PARTICIPATION_MESSAGES,
  PARTICIPATION_RATINGS,
} from './rules';

/** Contracts of participation: join, the participation read, autosave, submit and the participant's dashboard. */

// The constants and pure rules live in rules.ts, without zod (the participation screen needs them at first
// paint, the schemas only later): import them from there.

/** A map keyed by component id; keys are checked here so the message names the real problem. */
const byComponent = <T extends z.ZodType>(value: T) =>
  z
    .record(z.string(), value)
    .refine((record) => Object.keys(record).length <= COMPONENTS_MAX, 'Too many answers')
    .refine((record) => Object.keys(record).every(isUuid), PARTICIPATION_MESSAGES.unknownComponent);

/** A map keyed by follow-up question id. */
const byQuestion = <T extends z.ZodType>(value: T) =>
  z
    .record(z.string(), value)
    .refine((record) => Object.keys(record).length <= COMPONENTS_MAX, 'Too many answers')
    .refine((record) => Object.keys(record).every(isUuid), FOLLOW_UP_MESSAGES.unknownQuestion);

/** Body of the autosave (PUT /responses) and of submit: the spec's interim `responses` shape. */
export const responsesSchema = z.strictObject({
  votes: byComponent(z.enum(PARTICIPATION_RATINGS, { error: PARTICIPATION_MESSAGES.invalidRating })),
  comments: byComponent(z.string().max(COMMENT_MAX, PARTICIPATION_MESSAGES.commentTooLong)),
  last_component_index: z.number().int().min(0).max(COMPONENTS_MAX),
  /** Answers to the follow-up questions (decision 0019), keyed by question id; optional, like their comments. */
  follow_ups: byQuestion(z.enum(FOLLOW_UP_ANSWERS, { error: FOLLOW_UP_MESSAGES.invalidAnswer })).optional(),
  follow_up_comments: byQuestion(
    z.string().max(COMMENT_MAX, PARTICIPATION_MESSAGES.commentTooLong),
  ).optional(),
});
export type Responses = z.infer<typeof responsesSchema>;

export const joinResponseSchema = z.object({ participantId: z.uuid(), redirectTo: z.string() });
export type JoinResponse = z.infer<typeof joinResponseSchema>;

/**
 * What a signed-out visitor of a join or sign-up link may learn: the title, whether it takes people, and the branding
 * of the organisation the check belongs to (its name, logo and accent colour; nothing else of it).
 */
export const joinInfoSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  acceptingParticipants: z.boolean(),
  branding: brandingSchema.nullable(),
});
export type JoinInfo = z.infer<typeof joinInfoSchema>;

export const teamProgressSchema = z.object({ completed: z.number().int(), total: z.number().int() });
export type TeamProgress = z.infer<typeof teamProgressSchema>;

export const participationComponentSchema = z.object({
  id: z.uuid(),
  category: z.string().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  examples: z.array(z.string()),
});
export type ParticipationComponent = z.infer<typeof participationComponentSchema>;

/** A follow-up question: asked after the rating of `componentId` (decision 0019). */
export const participationFollowUpSchema = z.object({
  id: z.uuid(),
  componentId: z.uuid(),
  actionTitle: z.string(),
  question: z.string(),
});
export type ParticipationFollowUp = z.infer<typeof participationFollowUpSchema>;

export const participationSchema = z.object({
  healthCheck: z.object({
    id: z.uuid(),
    title: z.string(),
    description: z.string().nullable(),
    phase: z.enum(PHASES),
    status: z.string(),
    workspaceName: z.string(),
    settings: z.object({
      minResponses: z.number(),
      allowAnonymous: z.boolean(),
      enableComments: z.boolean(),
      votesPerPerson: z.number(),
      showResultsAfterVoting: z.boolean(),
    }),
  }),
  components: z.array(participationComponentSchema),
  followUps: z.array(participationFollowUpSchema),
  /** Null for a workspace admin or member who has not joined (they may join, or preview). */
  participant: z
    .object({
      id: z.uuid(),
      status: z.enum(PARTICIPANT_STATUSES),
      responses: responsesSchema.nullable(),
      completedAt: z.string().nullable(),
    })
    .nullable(),
  teamProgress: teamProgressSchema,
  /** True when the caller asked for a preview and may manage the check: nothing is registered or saved. */
  preview: z.boolean(),
  resultsReleased: z.boolean(),
  /** The branding of the organisation the check belongs to, for the participation screens. */
  branding: brandingSchema.nullable(),
});
export type Participation = z.infer<typeof participationSchema>;

export const progressSchema = z.object({ phase: z.enum(PHASES), teamProgress: teamProgressSchema });
export type ProgressResponse = z.infer<typeof progressSchema>;

export const saveResponsesResultSchema = z.object({
  status: z.enum(PARTICIPANT_STATUSES),
  progress: z.number().int(),
  savedAt: z.string(),
});
export type SaveResponsesResult = z.infer<typeof saveResponsesResultSchema>;

export const submitResultSchema = z.object({ redirectTo: z.string(), teamProgress: teamProgressSchema });
export type SubmitResult = z.infer<typeof submitResultSchema>;

export const myHealthCheckSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  workspaceName: z.string(),
  phase: z.enum(PHASES),
  status: z.string(),
  participantStatus: z.enum(PARTICIPANT_STATUSES),
  progress: z.number().int(),
  joinedAt: z.string(),
  completedAt: z.string().nullable(),
  teamProgress: teamProgressSchema,
  resultsReleased: z.boolean(),
});
export type MyHealthCheck = z.infer<typeof myHealthCheckSchema>;
export const myHealthChecksSchema = z.object({ healthChecks: z.array(myHealthCheckSchema) });
