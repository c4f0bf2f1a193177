import type { ApiToken, CreateApiToken, CreatedApiToken } from '@pulsecheck/shared/api-tokens/rules';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost } from '@/lib/api-client';

/** The 'API tokens' tab's calls (issue 35): the person's own tokens, and their organisation's for its admins. */
export type TokenOwner = 'account' | 'organization';

const tokensQuery = (owner: TokenOwner) =>
  queryOptions({
    queryKey: ['api-tokens', owner],
    queryFn: ({ signal }) => apiGet<{ tokens: ApiToken[] }>(`/${owner}/api-tokens`, signal),
  });

export const useApiTokens = (owner: TokenOwner) => useQuery(tokensQuery(owner));

function useTokenChange<I, O>(owner: TokenOwner, call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQuery(owner).queryKey }),
  });
}

export const useCreateApiToken = (owner: TokenOwner) =>
  useTokenChange(owner, (input: CreateApiToken) => apiPost<CreatedApiToken>(`/${owner}/api-tokens`, input));

export const useRevokeApiToken = (owner: TokenOwner) =>
  useTokenChange(owner, (id: string) => apiDelete(`/${owner}/api-tokens/${id}`));
