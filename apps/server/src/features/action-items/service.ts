import { messageWith } from '@pulsecheck/shared/i18n/message';
import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import { LIVE_EVENT, topics } from '@pulsecheck/shared/realtime/topics';
import { HEALTH_CHECK_NOT_FOUND } from '@pulsecheck/shared/health-checks/rules';
import {
  ACTION_ITEM_MESSAGES,
  type CreateActionItemInput,
  type UpdateActionItemInput,
  createActionItemSchema,
  updateActionItemSchema,
} from '@pulsecheck/shared/action-items/schemas';
import type { ActionItem } from '@pulsecheck/shared/results/schemas';
import { healthCheckAccess } from '../../auth/access';
import type { Db } from '../../db/client';
import { invalid, notFound } from '../../lib/app-error';
import type { AppDeps } from '../../lib/router';
import { notify } from '../notifications/service';
import { actionItemChanged } from '../../webhooks/emit';
import { queueIssueUpdate, trackerIssuesOf } from '../../trackers/links';
import * as q from './queries';

type Deps = Pick<AppDeps, 'db' | 'realtime'>;

const iso = (value: string | Date) => new Date(value).toISOString();

/** The check's action items as the results screen shows them. */
export async function listActionItems(db: Db, healthCheckId: string, itemId?: string): Promise<ActionItem[]> {
  const { items, mentions } = await q.itemsOfCheck(db, healthCheckId, itemId);
  const issues = await trackerIssuesOf(db, healthCheckId, itemId);
  return items.map((item) => ({
    id: item.id,
    componentId: item.componentId,
    description: item.description,
    owner:
      item.ownerId && item.ownerName !== null && item.ownerEmail !== null
        ? { id: item.ownerId, name: item.ownerName, email: item.ownerEmail }
        : null,
    dueDate: item.dueDate,
    status: item.status as ActionItem['status'],
    completedAt: item.completedAt === null ? null : iso(item.completedAt),
    mentioned: mentions
      .filter((m) => m.actionItemId === item.id)
      .map(({ id, name, email }) => ({ id, name, email })),
    tracker: issues.get(item.id) ?? null,
    createdAt: iso(item.createdAt),
    updatedAt: iso(item.updatedAt),
  }));
}

/** The check, when the user manages it (admin or member of its workspace); otherwise 404. */
async function managedCheck(db: Db, userId: string, healthCheckId: string) {
  const access = await healthCheckAccess(db, userId, healthCheckId);
  const check = access?.manages ? await q.findCheckBasics(db, healthCheckId) : undefined;
  if (!check) throw notFound(HEALTH_CHECK_NOT_FOUND);
  return check;
}

/** The check's action items for those who oversee it (the API's read; the results screen has them too). */
export async function listCheckActionItems(db: Db, options: { userId: string; healthCheckId: string }) {
  const check = await managedCheck(db, options.userId, options.healthCheckId);
  return { actionItems: await listActionItems(db, check.id) };
}

/** People of the check's workspace for the owner list and the @mention suggestions. */
export async function listMembers(
  db: Db,
  options: { userId: string; healthCheckId: string; query?: string },
) {
  const check = await managedCheck(db, options.userId, options.healthCheckId);
  return q.workspacePeople(db, check.workspaceId, options.query?.trim() ?? '');
}

async function checkPeople(db: Db, workspaceId: string, ownerId: string | undefined, mentioned: string[]) {
  const wanted = [...new Set([...(ownerId ? [ownerId] : []), ...mentioned])];
  const members = await q.membersAmong(db, workspaceId, wanted);
  if (ownerId && !members.has(ownerId)) {
    throw invalid(ACTION_ITEM_MESSAGES.ownerOutside, { ownerId: ACTION_ITEM_MESSAGES.ownerOutside });
  }
  if (mentioned.some((id) => !members.has(id))) {
    throw invalid(ACTION_ITEM_MESSAGES.mentionOutside, {
      mentionedUserIds: ACTION_ITEM_MESSAGES.mentionOutside,
    });
  }
}

const excerpt = (text: string) => (text.length > 120 ? `${text.slice(0, 117)}...` : text);

async function notifyPeople(
  deps: Deps,
  tx: Db,
  options: {
    actor: { id: string; name: string };
    check: { id: string; title: string };
    description: string;
    newOwner: string | null;
    newlyMentioned: string[];
  },
) {
  const { actor, check, description } = options;
  const link = `/health-check/${check.id}/results`;
  if (options.newOwner && options.newOwner !== actor.id) {
    await notify(
      deps,
      {
        userIds: [options.newOwner],
        type: 'assignment',
        message: messageWith('mail.notice.assigned', {
          actor: actor.name,
          title: check.title,
          excerpt: excerpt(description),
        }),
        link,
        healthCheckId: check.id,
      },
      tx,
    );
  }
  const mentioned = options.newlyMentioned.filter((id) => id !== actor.id && id !== options.newOwner);
  if (mentioned.length > 0) {
    await notify(
      deps,
      {
        userIds: mentioned,
        type: 'mention',
        message: messageWith('mail.notice.mentioned', {
          actor: actor.name,
          title: check.title,
          excerpt: excerpt(description),
        }),
        link,
        healthCheckId: check.id,
      },
      tx,
    );
  }
}

/** Stores an action item with its mentions and notifies the owner and the mentioned, in one transaction. */
export async function createActionItem(
  deps: Deps,
  options: { actor: { id: string; name: string }; healthCheckId: string; input: CreateActionItemInput },
): Promise<ActionItem> {
  const input = createActionItemSchema.parse(options.input);
  const check = await managedCheck(deps.db, options.actor.id, options.healthCheckId);
  const mentioned = [...new Set(input.mentionedUserIds)];
  await checkPeople(deps.db, check.workspaceId, input.ownerId, mentioned);
  if (input.componentId && !(await q.componentOfTemplate(deps.db, check.templateId, input.componentId))) {
    throw invalid(ACTION_ITEM_MESSAGES.componentUnknown, {
      componentId: ACTION_ITEM_MESSAGES.componentUnknown,
    });
  }
  const id = await deps.db.transaction(async (tx) => {
    const itemId = await q.insertItem(tx, {
      healthCheckId: check.id,
      componentId: input.componentId,
      description: input.description,
      ownerId: input.ownerId,
      dueDate: input.dueDate,
      status: input.status,
      completedAt: input.status === 'completed' ? new Date() : null,
      createdBy: options.actor.id,
    });
    await q.replaceMentions(tx, itemId, mentioned);
    await actionItemChanged(tx, {
      workspaceId: check.workspaceId,
      healthCheckId: check.id,
      item: { id: itemId, description: input.description, status: input.status },
      created: true,
      completedNow: input.status === 'completed',
    });
    await notifyPeople(deps, tx, {
      actor: options.actor,
      check,
      description: input.description,
      newOwner: input.ownerId,
      newlyMentioned: mentioned,
    });
    await deps.realtime.publish(
      { topic: topics.healthCheck(check.id), type: LIVE_EVENT.actionItemsChanged },
      tx,
    );
    return itemId;
  });
  const [item] = await listActionItems(deps.db, check.id, id);
  return item!;
}

/**
 * What a changed item announces, in the transaction that changed it: its webhook events (completed now or not) and
 * the check's live screens. Answers the item as it now reads.
 */
async function announceChange(
  deps: Pick<AppDeps, 'realtime'>,
  tx: Db,
  check: { id: string; workspaceId: string },
  before: { id: string; status: string },
) {
  const [current] = await listActionItems(tx, check.id, before.id);
  await actionItemChanged(tx, {
    workspaceId: check.workspaceId,
    healthCheckId: check.id,
    item: current!,
    created: false,
    completedNow: current!.status === 'completed' && before.status !== 'completed',
  });
  await deps.realtime.publish(
    { topic: topics.healthCheck(check.id), type: LIVE_EVENT.actionItemsChanged },
    tx,
  );
  return current!;
}

/** Edits an action item; people newly assigned or newly mentioned are notified. */
export async function updateActionItem(
  deps: Deps,
  options: { actor: { id: string; name: string }; actionItemId: string; input: UpdateActionItemInput },
): Promise<ActionItem> {
  const input = updateActionItemSchema.parse(options.input);
  const existing = await q.findItem(deps.db, options.actionItemId);
  if (!existing) throw notFound(NOT_FOUND_MESSAGES.actionItem);
  const check = await managedCheck(deps.db, options.actor.id, existing.healthCheckId).catch(() => {
    throw notFound(NOT_FOUND_MESSAGES.actionItem);
  });
  const mentioned = input.mentionedUserIds ? [...new Set(input.mentionedUserIds)] : undefined;
  await checkPeople(deps.db, check.workspaceId, input.ownerId, mentioned ?? []);
  if (input.componentId && !(await q.componentOfTemplate(deps.db, check.templateId, input.componentId))) {
    throw invalid(ACTION_ITEM_MESSAGES.componentUnknown, {
      componentId: ACTION_ITEM_MESSAGES.componentUnknown,
    });
  }
  await deps.db.transaction(async (tx) => {
    const before = await q.mentionedIds(tx, existing.id);
    await q.updateItem(tx, existing.id, {
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.ownerId !== undefined ? { ownerId: input.ownerId } : {}),
      ...(input.dueDate !== undefined ? { dueDate: input.dueDate } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.componentId !== undefined ? { componentId: input.componentId } : {}),
    });
    if (mentioned) await q.replaceMentions(tx, existing.id, mentioned);
    // What its issue shows (decision 0023): written to the tracker by a job, never during this request.
    if (input.description !== undefined || input.dueDate !== undefined || input.componentId !== undefined)
      await queueIssueUpdate(tx, existing.id);
    const current = await announceChange(deps, tx, check, existing);
    await notifyPeople(deps, tx, {
      actor: options.actor,
      check,
      description: current.description,
      newOwner: input.ownerId && input.ownerId !== existing.ownerId ? input.ownerId : null,
      newlyMentioned: (mentioned ?? []).filter((id) => !before.includes(id)),
    });
  });
  const [item] = await listActionItems(deps.db, check.id, existing.id);
  return item!;
}

/**
 * The tracker closed or reopened the item's issue (decision 0023, the sync rules in
 * packages/shared/src/trackers/rules.ts): its status follows as if someone had set it, in the caller's transaction —
 * marked done, it is asked about by the next check (decision 0019), and webhooks and live screens hear of it.
 */
export async function setStatusFromTracker(
  deps: Pick<AppDeps, 'realtime'>,
  tx: Db,
  options: { actionItemId: string; status: 'pending' | 'completed' },
) {
  const existing = await q.findItem(tx, options.actionItemId);
  if (!existing) return;
  const check = await q.findCheckBasics(tx, existing.healthCheckId);
  if (!check) return;
  await q.updateItem(tx, existing.id, { status: options.status });
  await announceChange(deps, tx, check, existing);
}
