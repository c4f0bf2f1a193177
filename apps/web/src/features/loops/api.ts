import type { FollowUpAnswer } from '@pulsecheck/shared/action-items/follow-up';
import type { LaunchLoop, LoopDefinition } from '@pulsecheck/shared/loops/schemas';
import type {
  CompletionStatus,
  LaunchLoopResponse,
  LoopDetail,
  LoopInsights,
  LoopResults,
  MyLoopRound,
  RemindResponse,
  RoundSummary,
  RoundToAnswer,
  SaveLoopTemplate,
} from '@pulsecheck/shared/loops/contract';
import type { RoundAnswers } from '@pulsecheck/shared/loops/schemas';
import { topics } from '@pulsecheck/shared/realtime/topics';
import type { MembersResponse } from '@pulsecheck/shared/team/schemas';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiGet, apiPost, apiPut } from '@/lib/api-client';
import { useLiveEvents } from '@/lib/live-events';
import { templateQuery } from '@/lib/templates';

const enc = encodeURIComponent;
const loopKey = (loopId: string) => ['loop', loopId] as const;

/** After a change to a loop: its screens and the dashboard's figures read it again. */
const refreshLoop = (queryClient: QueryClient, loopId: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: loopKey(loopId) }),
    queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
  ]);

/** A loop template's questions and defaults (null for 'new', from scratch). */
export function useLoopTemplate(templateId: string | null) {
  return useQuery({ ...templateQuery(templateId ?? ''), enabled: templateId !== null });
}

export function useLaunchLoop() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LaunchLoop) => apiPost<LaunchLoopResponse>('/loops', input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
  });
}

/** A loop's definition and state, for editing it on Configure Loop. */
export function useLoop(loopId: string) {
  return useQuery({
    queryKey: [...loopKey(loopId), 'detail'],
    queryFn: ({ signal }) => apiGet<{ loop: LoopDetail }>(`/loops/${enc(loopId)}`, signal),
    select: (data) => data.loop,
  });
}

export function useEditLoop(loopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (definition: LoopDefinition) =>
      apiPut<{ loop: LoopDetail }>(`/loops/${enc(loopId)}`, definition),
    onSuccess: () => refreshLoop(queryClient, loopId),
  });
}

/** 'Save as Template': the form's questions and settings as a workspace loop template. */
export function useSaveLoopTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveLoopTemplate) => apiPost<{ id: string }>('/templates', body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['templates'] }),
        queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
      ]),
  });
}

/** The workspace's members, for choosing an audience. */
export function useWorkspaceMembers(workspaceId: string) {
  return useQuery({
    queryKey: ['team', workspaceId],
    queryFn: ({ signal }) => apiGet<MembersResponse>(`/workspaces/${enc(workspaceId)}/members`, signal),
    select: (data) => data.members,
  });
}

/** Every read of a loop's screens refetches when the server says the loop changed (an answer, a round, a status). */
export function useLiveLoop(loopId: string) {
  const queryClient = useQueryClient();
  const refetch = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: loopKey(loopId) });
  }, [queryClient, loopId]);
  useLiveEvents([topics.loop(loopId)], refetch);
}

export function useCompletionStatus(loopId: string) {
  return useQuery({
    queryKey: [...loopKey(loopId), 'completion-status'],
    queryFn: ({ signal }) => apiGet<CompletionStatus>(`/loops/${enc(loopId)}/completion-status`, signal),
  });
}

export function useLoopResults(loopId: string, roundId: string | null) {
  const query = roundId ? `?roundId=${enc(roundId)}` : '';
  return useQuery({
    queryKey: [...loopKey(loopId), 'results', roundId],
    queryFn: ({ signal }) => apiGet<LoopResults>(`/loops/${enc(loopId)}/results${query}`, signal),
    placeholderData: (previous) => previous,
  });
}

/** The address of a round's CSV export (a download, not a fetch). */
export const resultsCsvUrl = (loopId: string, roundId: string) =>
  `/api/loops/${enc(loopId)}/results/csv?roundId=${enc(roundId)}`;

export function useLoopInsights(loopId: string) {
  return useQuery({
    queryKey: [...loopKey(loopId), 'insights'],
    queryFn: ({ signal }) => apiGet<LoopInsights>(`/loops/${enc(loopId)}/insights`, signal),
  });
}

/** The actions of Completion Status; each refetches the loop's screens and the dashboard. */
export function useLoopAction<T = unknown>(loopId: string, path: (roundId: string) => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (roundId: string) => apiPost<T>(`/loops/${enc(loopId)}${path(enc(roundId))}`),
    onSettled: () => refreshLoop(queryClient, loopId),
  });
}

export const LOOP_ACTIONS = {
  pause: () => '/pause',
  resume: () => '/resume',
  stop: () => '/stop',
  startRound: () => '/rounds',
  closeRound: (roundId: string) => `/rounds/${roundId}/close`,
  remind: (roundId: string) => `/rounds/${roundId}/remind`,
} as const;

export type LoopActionResults = {
  pause: { loop: LoopDetail };
  resume: { loop: LoopDetail };
  stop: { loop: LoopDetail };
  startRound: { round: RoundSummary };
  closeRound: { round: RoundSummary };
  remind: RemindResponse;
};

// ---------------------------------------------------------------------------------------------------------
// Answering

/** Where a round is answered: by the personal link's token, or as the signed-in member by round id. */
export type AnswerTarget = { token: string } | { roundId: string };

const answerPath = (target: AnswerTarget) =>
  'token' in target ? `/loop-answer/${enc(target.token)}` : `/loop-rounds/${enc(target.roundId)}/answer`;

export const roundToAnswerKey = (target: AnswerTarget) => ['loop-answer', answerPath(target)] as const;

export function useRoundToAnswer(target: AnswerTarget) {
  return useQuery({
    queryKey: roundToAnswerKey(target),
    queryFn: ({ signal }) => apiGet<RoundToAnswer>(answerPath(target), signal),
    retry: false,
  });
}

/** Follow-up answers go with the body only when there are any (a round without them sends what it always did). */
const withFollowUps = <T extends object>(body: T, followUps: Record<string, FollowUpAnswer>) =>
  Object.keys(followUps).length > 0 ? { ...body, followUps } : body;

export const submitAnswers = (
  target: AnswerTarget,
  answers: RoundAnswers,
  followUps: Record<string, FollowUpAnswer> = {},
) => apiPost<{ ok: true }>(answerPath(target), withFollowUps({ answers }, followUps));

export const quickAnswer = (token: string, value: number) =>
  apiPost<{ continuation: string }>(`/loop-answer/${enc(token)}/quick`, { value });

export const continueAnswers = (
  continuation: string,
  answers: RoundAnswers,
  followUps: Record<string, FollowUpAnswer> = {},
) => apiPost<{ ok: true }>('/loop-responses/continue', withFollowUps({ continuation, answers }, followUps));

/** The signed-in member's open rounds (/dashboard). */
export function useMyLoopRounds() {
  return useQuery({
    queryKey: ['my-loop-rounds'],
    queryFn: ({ signal }) => apiGet<{ rounds: MyLoopRound[] }>('/my/loop-rounds', signal),
    select: (data) => data.rounds,
  });
}
