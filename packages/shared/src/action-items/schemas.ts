import { z } from 'zod';
import { requiredText } from '../api/fields';
import { actionItemStatusSchema, isRealDate } from '../results/schemas';

/** Catalogue keys (packages/shared/messages/<language>/actionItems.json). */
export const ACTION_ITEM_MESSAGES = {
  descriptionRequired: 'actionItems.descriptionRequired',
  descriptionTooLong: 'actionItems.descriptionTooLong',
  ownerRequired: 'actionItems.ownerRequired',
  ownerOutside: 'actionItems.ownerOutside',
  mentionOutside: 'actionItems.mentionOutside',
  componentUnknown: 'actionItems.componentUnknown',
  invalidDate: 'actionItems.invalidDate',
  created: 'actionItems.created',
  updated: 'actionItems.updated',
} as const;

const description = requiredText(
  ACTION_ITEM_MESSAGES.descriptionRequired,
  1000,
  ACTION_ITEM_MESSAGES.descriptionTooLong,
);

const dueDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, ACTION_ITEM_MESSAGES.invalidDate)
  .refine(isRealDate, ACTION_ITEM_MESSAGES.invalidDate)
  .nullable();

export const createActionItemSchema = z.strictObject({
  description,
  ownerId: z.string({ error: ACTION_ITEM_MESSAGES.ownerRequired }).min(1, ACTION_ITEM_MESSAGES.ownerRequired),
  dueDate: dueDate.default(null),
  status: actionItemStatusSchema.default('pending'),
  componentId: z.uuid(ACTION_ITEM_MESSAGES.componentUnknown).nullable().default(null),
  mentionedUserIds: z.array(z.string().min(1)).max(50).default([]),
});
export type CreateActionItemInput = z.input<typeof createActionItemSchema>;

export const updateActionItemSchema = z.strictObject({
  description: description.optional(),
  ownerId: z.string().min(1, ACTION_ITEM_MESSAGES.ownerRequired).optional(),
  dueDate: dueDate.optional(),
  status: actionItemStatusSchema.optional(),
  /** The component it is for (optional; one of its check's components), or null for none. */
  componentId: z.uuid(ACTION_ITEM_MESSAGES.componentUnknown).nullable().optional(),
  mentionedUserIds: z.array(z.string().min(1)).max(50).optional(),
});
export type UpdateActionItemInput = z.input<typeof updateActionItemSchema>;

export const workspacePersonSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type WorkspacePerson = z.infer<typeof workspacePersonSchema>;
export const membersResponseSchema = z.object({ members: z.array(workspacePersonSchema) });

/** The word being typed at the caret when it starts with @, for the mention suggestions (spec section 5). */
export function mentionQueryAt(text: string, caret: number): { query: string; start: number } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return null;
  const query = match[2] ?? '';
  return { query, start: caret - query.length - 1 };
}

/** People whose name or e-mail contains the query, case-insensitive. */
export function matchPeople<T extends { name: string; email: string }>(
  people: readonly T[],
  query: string,
): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...people];
  return people.filter((p) => p.name.toLowerCase().includes(q) || p.email.toLowerCase().includes(q));
}

/** A done action item a new check of the workspace may ask about (Configure, decision 0019). */
export const followUpCandidateSchema = z.object({
  id: z.string(),
  description: z.string(),
  status: z.string(),
  completedAt: z.string().nullable(),
  componentKey: z.string().nullable(),
  componentTitle: z.string().nullable(),
  ownerName: z.string().nullable(),
  asked: z.boolean(),
});
export type FollowUpCandidate = z.infer<typeof followUpCandidateSchema>;
export const followUpCandidatesResponseSchema = z.object({ actions: z.array(followUpCandidateSchema) });
