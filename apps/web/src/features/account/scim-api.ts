import type { CreatedScimToken, ScimSettings } from '@pulsecheck/shared/scim/rules';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '@/lib/api-client';

/** The 'SCIM provisioning' card's calls (issue 37): the settings, and creating or rotating the token. */
const scimQuery = queryOptions({
  queryKey: ['organization', 'scim'],
  queryFn: ({ signal }) => apiGet<ScimSettings>('/organization/scim', signal),
});

export const useScimSettings = () => useQuery(scimQuery);

export function useCreateScimToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<CreatedScimToken>('/organization/scim/token'),
    onSuccess: (created) => queryClient.setQueryData(scimQuery.queryKey, created.settings),
  });
}
