import type { IdentityProof } from '@pulsecheck/shared/account/deletion';
import type {
  Passkey,
  SamlSettings,
  SamlSettingsInput,
  SecurityStatus,
  SsoLinkStatus,
  SsoSettings,
  SsoSettingsInput,
} from '@pulsecheck/shared/auth/security';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost, apiPut } from '@/lib/api-client';
import { sessionQueryKey } from '@/lib/session';

/** The Security tab's calls (issue 15): two-factor sign-in, passkeys, the organisation's rules and its SSO. */
const securityQuery = queryOptions({
  queryKey: ['account', 'security'],
  queryFn: ({ signal }) => apiGet<SecurityStatus>('/account/security', signal),
});
const ssoQuery = queryOptions({
  queryKey: ['organization', 'sso'],
  queryFn: ({ signal }) => apiGet<SsoSettings>('/organization/sso', signal),
});

export const useSecurity = () => useQuery(securityQuery);
export const useSsoSettings = (enabled: boolean) => useQuery({ ...ssoQuery, enabled });

/** A change that alters the person's factors: the Security tab and the session (two-factor due) reload. */
function useSecurityChange<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: securityQuery.queryKey });
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}

export const startEnrolment = (password: string) =>
  apiPost<{ totpUri: string; key: string }>('/account/two-factor/enrol', { password });
export const useConfirmEnrolment = () =>
  useSecurityChange((code: string) =>
    apiPost<{ recoveryCodes: string[] }>('/account/two-factor/confirm', { code }),
  );
export const useDisableTwoFactor = () =>
  useSecurityChange((body: { password: string; code: string }) =>
    apiPost('/account/two-factor/disable', body),
  );
export const useRegenerateCodes = () =>
  useSecurityChange((password: string) =>
    apiPost<{ recoveryCodes: string[] }>('/account/two-factor/recovery-codes', { password }),
  );

/**
 * Creates a passkey: the server's options (for the proof that it is the person), the browser's authenticator
 * (WebAuthn), then the server saves it.
 */
export const useAddPasskey = () =>
  useSecurityChange(async ({ name, confirm }: { name: string; confirm: IdentityProof }) => {
    const { startRegistration } = await import('@simplewebauthn/browser');
    const optionsJSON = await apiPost<Parameters<typeof startRegistration>[0]['optionsJSON']>(
      '/account/passkeys/options',
      { confirm },
    );
    const response = await startRegistration({ optionsJSON });
    return apiPost<Passkey>('/account/passkeys', { name, response });
  });
export const useRemovePasskey = () =>
  useSecurityChange((id: string) => apiDelete(`/account/passkeys/${encodeURIComponent(id)}`));

export const useRequireTwoFactor = () =>
  useSecurityChange((requireTwoFactor: boolean) => apiPut('/organization/security', { requireTwoFactor }));

const ssoLinkKey = ['account', 'sso-link'] as const;

function useSsoChange<I>(call: (input: I) => Promise<SsoSettings>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async (settings) => {
      queryClient.setQueryData(ssoQuery.queryKey, settings);
      // Whether 'Link single sign-on' is offered follows the organisation's settings (switched on, domains verified).
      await queryClient.invalidateQueries({ queryKey: ssoLinkKey });
    },
  });
}
export function useSaveSso() {
  const queryClient = useQueryClient();
  const change = useSsoChange((body: SsoSettingsInput) => apiPut<SsoSettings>('/organization/sso', body));
  // Saving OpenID Connect replaces SAML: its settings reload too.
  return {
    ...change,
    mutateAsync: async (body: SsoSettingsInput) => {
      const settings = await change.mutateAsync(body);
      await queryClient.invalidateQueries({ queryKey: ['organization', 'saml'] });
      return settings;
    },
  };
}
export const useSwitchSso = () =>
  useSsoChange((body: { enabled: boolean; required: boolean }) =>
    apiPut<SsoSettings>('/organization/sso/switch', body),
  );
const samlQuery = queryOptions({
  queryKey: ['organization', 'saml'],
  queryFn: ({ signal }) => apiGet<SamlSettings>('/organization/saml', signal),
});
export const useSamlSettings = (enabled: boolean) => useQuery({ ...samlQuery, enabled });
/** Saving SAML replaces OpenID Connect (one of the two per organisation): both settings reload. */
export function useSaveSaml() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SamlSettingsInput) => apiPut<SamlSettings>('/organization/saml', body),
    onSuccess: async (settings) => {
      queryClient.setQueryData(samlQuery.queryKey, settings);
      await queryClient.invalidateQueries({ queryKey: ssoQuery.queryKey });
      await queryClient.invalidateQueries({ queryKey: ssoLinkKey });
    },
  });
}

/** 'Test connection': the browser goes to the provider and comes back to this tab. */
export async function testSsoConnection() {
  const { url } = await apiPost<{ url: string }>('/organization/sso/test');
  window.location.assign(url);
}
export const useVerifySsoDomain = () =>
  useSsoChange((domain: string) => apiPost<SsoSettings>('/organization/sso/verify-domain', { domain }));

/** 'Link single sign-on' (every signed-in person): whether it is offered and done. */
export const useSsoLinkStatus = () =>
  useQuery({
    queryKey: ssoLinkKey,
    queryFn: ({ signal }) => apiGet<SsoLinkStatus>('/account/sso-link', signal),
  });
/** After the password or a code, the browser goes to the provider and comes back to this tab. */
export async function linkSso(confirm: IdentityProof) {
  const { url } = await apiPost<{ url: string }>('/account/sso-link', { confirm });
  window.location.assign(url);
}
