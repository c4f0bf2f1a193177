import type { Branding } from '@pulsecheck/shared/branding/rules';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost, apiPut } from '@/lib/api-client';

type BrandingResponse = { branding: Branding };

/** The organisation's branding, for its owner and organisation admins (403 for anyone else). */
export const organizationBrandingQuery = queryOptions({
  queryKey: ['organization', 'branding'],
  queryFn: ({ signal }) => apiGet<BrandingResponse>('/organization/branding', signal),
  retry: false,
});

export const useOrganizationBranding = () => useQuery(organizationBrandingQuery);

/** A change of the branding: the answer is the branding as saved. */
function useBrandingChange<I>(call: (input: I) => Promise<BrandingResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (data) => queryClient.setQueryData(organizationBrandingQuery.queryKey, data),
  });
}

export const useSaveAccentColor = () =>
  useBrandingChange((accentColor: string | null) =>
    apiPut<BrandingResponse>('/organization/branding', { accentColor }),
  );

export const useUploadLogo = () =>
  useBrandingChange((file: File) => {
    const form = new FormData();
    form.append('logo', file);
    return apiPost<BrandingResponse>('/organization/branding/logo', form);
  });

export const useRemoveLogo = () =>
  useBrandingChange(() => apiDelete<BrandingResponse>('/organization/branding/logo'));
