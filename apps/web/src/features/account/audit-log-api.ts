import type { AuditFilter, AuditList, AuditVerify } from '@pulsecheck/shared/audit/log';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost, apiPut } from '@/lib/api-client';

/** The 'Audit log' tab's calls (issue 37 item 3): the organisation's owner and organisation admins. */
const base = (organizationId: string) => `/organizations/${organizationId}/audit-log`;

/** The filters as typed or read from the screen's URL: the server validates them (and names a wrong one). */
export type FilterText = Partial<Record<keyof AuditFilter, string>>;

/** The filters as a query string, only those set (the URL of the screen and of the exports use the same). */
export const filterParams = (filter: FilterText) =>
  new URLSearchParams(
    Object.entries(filter).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    ),
  );

const auditLogQuery = (organizationId: string, filter: FilterText) =>
  infiniteQueryOptions({
    queryKey: ['audit-log', organizationId, filter],
    initialPageParam: undefined as number | undefined,
    queryFn: ({ signal, pageParam }) => {
      const params = filterParams(filter);
      if (pageParam !== undefined) params.set('before', String(pageParam));
      const query = params.toString();
      return apiGet<AuditList>(`${base(organizationId)}${query ? `?${query}` : ''}`, signal);
    },
    getNextPageParam: (page) => page.next ?? undefined,
  });

export const useAuditLog = (organizationId: string, filter: FilterText) =>
  useInfiniteQuery(auditLogQuery(organizationId, filter));

/** Where an export downloads from: the API's export with the screen's filters. */
export const exportHref = (organizationId: string, filter: FilterText, format: 'csv' | 'jsonl') => {
  const params = filterParams(filter);
  params.set('format', format);
  return `/api${base(organizationId)}/export?${params.toString()}`;
};

export const useVerifyAudit = (organizationId: string) =>
  useMutation({ mutationFn: () => apiPost<AuditVerify>(`${base(organizationId)}/verify`) });

export function useSaveRetention(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (retentionDays: number) =>
      apiPut<{ retentionDays: number }>(`${base(organizationId)}/retention`, { retentionDays }),
    // The change is itself an entry.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['audit-log', organizationId] }),
  });
}
