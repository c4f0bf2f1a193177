import type { DeletionStatus, IdentityProof } from '@pulsecheck/shared/account/deletion';
import type {
  NotificationPreferences,
  Profile,
  UnsubscribeResponse,
  UpdateProfileInput,
} from '@pulsecheck/shared/account/schemas';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiGet, apiPost, apiPut } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { sessionQueryKey } from '@/lib/session';

const profileQuery = queryOptions({
  queryKey: ['account', 'profile'],
  queryFn: ({ signal }) => apiGet<{ profile: Profile }>('/account/profile', signal),
});

export const preferencesQuery = queryOptions({
  queryKey: ['account', 'notification-preferences'],
  queryFn: ({ signal }) =>
    apiGet<{ preferences: NotificationPreferences }>('/account/notification-preferences', signal),
});

export const useProfile = () => useQuery(profileQuery);
export const usePreferences = () => useQuery(preferencesQuery);

export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProfileInput) => apiPut<{ profile: Profile }>('/account/profile', body),
    onSuccess: (data) => {
      queryClient.setQueryData(profileQuery.queryKey, data);
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}

/** Multipart upload; errors become the same ApiError as every other call. */
async function uploadPhoto(file: File): Promise<{ avatarUrl: string }> {
  const form = new FormData();
  form.append('photo', file);
  let response: Response;
  try {
    response = await fetch('/api/account/avatar', { method: 'POST', body: form, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network', t('common.networkError'));
  }
  const data = (await response.json().catch(() => null)) as
    | { avatarUrl: string }
    | { error: { code: 'invalid'; message: string; fields?: Record<string, string> } }
    | null;
  if (!response.ok || !data || 'error' in data) {
    const error = data && 'error' in data ? data.error : null;
    throw new ApiError(
      response.status,
      error?.code ?? 'internal',
      error?.message ?? t('common.requestFailed', { status: response.status }),
    );
  }
  return data;
}

export function useUploadPhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadPhoto,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: profileQuery.queryKey });
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}

export const changePassword = (body: unknown) => apiPost<{ ok: true }>('/account/password', body);

export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationPreferences) =>
      apiPut<{ preferences: NotificationPreferences }>('/account/notification-preferences', body),
    onSuccess: (data) => queryClient.setQueryData(preferencesQuery.queryKey, data),
  });
}

export const unsubscribe = (token: string) => apiPost<UnsubscribeResponse>('/account/unsubscribe', { token });

/** "Download my data": the export file and the name the server gave it; errors become ApiError. */
export async function downloadMyData(): Promise<{ blob: Blob; fileName: string }> {
  let response: Response;
  try {
    response = await fetch('/api/account/export', { credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'network', t('common.networkError'));
  }
  if (!response.ok) {
    const data = (await response.json().catch(() => null)) as {
      error?: { code: string; message: string };
    } | null;
    throw new ApiError(
      response.status,
      (data?.error?.code ?? 'internal') as ApiError['code'],
      data?.error?.message ?? t('common.requestFailed', { status: response.status }),
    );
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'pulsecheck-data.json';
  return { blob: await response.blob(), fileName };
}

export const deletionStatusQuery = queryOptions({
  queryKey: ['account', 'deletion'],
  queryFn: ({ signal }) => apiGet<DeletionStatus>('/account/deletion', signal),
});
export const useDeletionStatus = () => useQuery(deletionStatusQuery);

export const deleteAccount = (confirm: IdentityProof) =>
  apiPost<{ ok: true }>('/account/delete', { confirm });
export const transferOwnership = (organizationId: string, newOwnerId: string, confirm: IdentityProof) =>
  apiPost<{ name: string }>(`/organizations/${organizationId}/transfer`, { newOwnerId, confirm });
export const deleteOrganization = (organizationId: string, name: string, confirm: IdentityProof) =>
  apiPost<{ ok: true }>(`/organizations/${organizationId}/delete`, { name, confirm });
