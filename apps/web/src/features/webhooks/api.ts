import type { Webhook, WebhookDelivery, WebhookEventType } from '@pulsecheck/shared/webhooks/events';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPatch, apiPost } from '@/lib/api-client';

/** Whose webhooks a card shows: a workspace's, or the organisation-wide ones. */
export type WebhookScope = { kind: 'workspace' | 'organization'; id: string };

const listPath = (scope: WebhookScope) =>
  scope.kind === 'workspace' ? `/workspaces/${scope.id}/webhooks` : `/organizations/${scope.id}/webhooks`;
const listKey = (scope: WebhookScope) => ['webhooks', scope.kind, scope.id] as const;
const deliveriesKey = (webhookId: string) => ['webhooks', 'deliveries', webhookId] as const;

export const useWebhooks = (scope: WebhookScope) =>
  useQuery({
    queryKey: listKey(scope),
    queryFn: ({ signal }) => apiGet<{ webhooks: Webhook[] }>(listPath(scope), signal),
  });

export function useCreateWebhook(scope: WebhookScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { url: string; events: WebhookEventType[] }) =>
      apiPost<{ webhook: Webhook; secret: string }>(listPath(scope), input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listKey(scope) }),
  });
}

export function useChangeWebhook(scope: WebhookScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: { id: string; paused?: boolean }) =>
      apiPatch<{ webhook: Webhook }>(`/webhooks/${id}`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listKey(scope) }),
  });
}

export function useDeleteWebhook(scope: WebhookScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiDelete(`/webhooks/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listKey(scope) }),
  });
}

export const useDeliveries = (webhookId: string, enabled: boolean) =>
  useQuery({
    queryKey: deliveriesKey(webhookId),
    queryFn: ({ signal }) =>
      apiGet<{ deliveries: WebhookDelivery[] }>(`/webhooks/${webhookId}/deliveries`, signal),
    enabled,
    // Deliveries go out in the background: the list follows them while it is open.
    refetchInterval: 2_000,
  });

export function useQueueDelivery(webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId?: string) =>
      apiPost<{ deliveryId: string }>(
        deliveryId ? `/webhooks/${webhookId}/deliveries/${deliveryId}/resend` : `/webhooks/${webhookId}/test`,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(webhookId) }),
  });
}
