import { DELETION_MESSAGES } from '@pulsecheck/shared/account/deletion';
import { type SecurityStatus } from '@pulsecheck/shared/auth/security';
import { SECURITY_MESSAGES, SSO_ERRORS } from '@pulsecheck/shared/auth/security-messages';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentUser } from '@/test/fixtures';
import { renderRoutes, stubFetch } from '@/test/render';
import { SecurityContent } from './security-page';
import { say } from '@/lib/i18n';

const status = (overrides: Partial<SecurityStatus> = {}): SecurityStatus => ({
  twoFactorEnabled: false,
  recoveryCodesLeft: null,
  hasPassword: true,
  passkeys: [],
  organization: { name: 'Acme', requireTwoFactor: false, administers: false },
  ...overrides,
});

function renderSecurity(security: SecurityStatus, options: { at?: string; mustEnrol?: boolean } = {}) {
  renderRoutes([{ path: '/security', element: <SecurityContent /> }], {
    at: options.at ?? '/security',
    seed: [
      [['account', 'security'], security],
      [
        ['account', 'deletion'],
        { confirmWith: 'password', authenticatorCode: false, ownedOrganizations: [] },
      ],
      [['session'], currentUser({ mustEnrolTwoFactor: options.mustEnrol ?? false })],
    ],
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The 'SCIM provisioning' card's settings, which the Security tab also reads for an organisation admin. */
const SCIM_SETTINGS = {
  baseUrl: 'http://localhost/scim/v2',
  mayManage: true,
  token: null,
  verifiedDomains: [],
  provisionedUsers: 0,
};

describe('Security tab', () => {
  it('enrols an authenticator app: password, QR code and key, a code, then the recovery codes once', async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `code-${i}`);
    const calls = stubFetch((url) => {
      if (url.endsWith('/two-factor/enrol'))
        return Response.json({ totpUri: 'otpauth://totp/Pulsecheck:ada?secret=ABCDEF', key: 'ABCDEF' });
      if (url.endsWith('/two-factor/confirm')) return Response.json({ recoveryCodes: codes });
      return Response.json(status({ twoFactorEnabled: true, recoveryCodesLeft: 10 }));
    });
    renderSecurity(status());
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Set up authenticator app' }));
    await user.type(screen.getByLabelText('Current password'), 'my-password');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByTestId('totp-key')).toHaveTextContent('ABCDEF');
    await user.type(screen.getByLabelText('Code from your authenticator app'), '12a3456');
    expect(screen.getByLabelText('Code from your authenticator app')).toHaveValue('123456');
    await user.click(screen.getByRole('button', { name: 'Turn on two-factor sign-in' }));
    expect(await screen.findAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByText(/shown only this once/)).toBeInTheDocument();
    const bodies = calls.mock.calls.map(([, init]) => init?.body).filter(Boolean);
    expect(bodies).toEqual([JSON.stringify({ password: 'my-password' }), JSON.stringify({ code: '123456' })]);
  });

  it("says what went wrong when the server refuses (the server's words)", async () => {
    stubFetch(() =>
      Response.json(
        {
          error: {
            code: 'invalid',
            message: say(SECURITY_MESSAGES.passwordWrong),
            fields: { password: say(SECURITY_MESSAGES.passwordWrong) },
          },
        },
        { status: 400 },
      ),
    );
    renderSecurity(status());
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Set up authenticator app' }));
    await user.type(screen.getByLabelText('Current password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(say(SECURITY_MESSAGES.passwordWrong));
  });

  it('asks for the password before it asks the device for a passkey', async () => {
    const calls = stubFetch(() =>
      Response.json(
        {
          error: {
            code: 'invalid',
            message: say(DELETION_MESSAGES.passwordIncorrect),
            fields: { 'confirm.password': say(DELETION_MESSAGES.passwordIncorrect) },
          },
        },
        { status: 400 },
      ),
    );
    renderSecurity(status());
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Passkey name'), 'Work laptop');
    await user.click(screen.getByRole('button', { name: 'Add passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(say(DELETION_MESSAGES.passwordRequired));
    // Nothing about passkeys was asked of the server (the tab's other cards read their own state).
    expect(calls.mock.calls.filter(([url]) => typeof url === 'string' && url.includes('/passkeys'))).toEqual(
      [],
    );
    await user.type(screen.getByLabelText('Your password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Add passkey' }));
    expect(await screen.findByText(say(DELETION_MESSAGES.passwordIncorrect))).toBeInTheDocument();
    expect(calls).toHaveBeenCalledWith(
      '/api/account/passkeys/options',
      expect.objectContaining({
        body: JSON.stringify({ confirm: { method: 'password', password: 'wrong' } }),
      }),
    );
  });

  it('shows the organisation requirement first, and the admin cards only to organisation admins', () => {
    renderSecurity(status({ twoFactorEnabled: true, recoveryCodesLeft: 7 }), { mustEnrol: true });
    expect(screen.getByText(say(SECURITY_MESSAGES.enrolmentRequired))).toBeInTheDocument();
    expect(screen.getByText('7 of 10 recovery codes left.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Organisation sign-in' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /Single sign-on/ })).not.toBeInTheDocument();
  });

  it("for an admin: the organisation's rule, SSO settings without the secret, and why a test failed", async () => {
    stubFetch((url) =>
      url.endsWith('/organization/scim')
        ? Response.json(SCIM_SETTINGS)
        : Response.json({
            configured: true,
            issuer: 'https://login.acme.example',
            clientId: 'pulsecheck',
            hasClientSecret: true,
            domains: ['acme.example'],
            redirectUri: 'http://localhost/api/auth/sso/callback/org-1',
            verification: [],
            testedAt: null,
            enabled: false,
            required: false,
          }),
    );
    renderSecurity(status({ organization: { name: 'Acme', requireTwoFactor: true, administers: true } }), {
      at: '/security?sso_error=nonce',
    });
    expect(screen.getByRole('switch', { name: /Require two-factor sign-in for everyone/ })).toBeChecked();
    expect(await screen.findByLabelText('Issuer URL')).toHaveValue('https://login.acme.example');
    expect(screen.getByLabelText('Client secret')).toHaveValue('');
    expect(screen.getByText('Saved (encrypted). Leave empty to keep it.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(say(SSO_ERRORS.nonce));
    expect(screen.getByRole('switch', { name: /Offer .Sign in with SSO./ })).toBeDisabled();
    expect(screen.getByRole('switch', { name: /Require SSO for these domains/ })).toBeDisabled();
  });

  it('for an admin with SAML: what to register, the certificates, the IdP-initiated switch with its risk, and saving', async () => {
    const saml = {
      configured: true,
      idpEntityId: 'https://idp.acme.example/saml',
      idpSsoUrl: 'https://idp.acme.example/sso',
      certificates: [{ fingerprint: 'AB:CD', expiresAt: '2030-01-01T00:00:00.000Z' }],
      metadataUrl: 'https://idp.acme.example/metadata',
      allowIdpInitiated: false,
      spEntityId: 'http://localhost/api/auth/saml/metadata/org-1',
      spAcsUrl: 'http://localhost/api/auth/saml/acs/org-1',
      spMetadataUrl: 'http://localhost/api/auth/saml/metadata/org-1',
    };
    const calls = stubFetch((url) =>
      url.endsWith('/organization/saml')
        ? Response.json(saml)
        : url.endsWith('/organization/scim')
          ? Response.json(SCIM_SETTINGS)
          : Response.json({
              configured: true,
              protocol: 'saml',
              issuer: null,
              clientId: null,
              hasClientSecret: false,
              domains: ['acme.example'],
              redirectUri: 'http://localhost/api/auth/sso/callback/org-1',
              verification: [],
              testedAt: null,
              enabled: false,
              required: false,
            }),
    );
    renderSecurity(status({ organization: { name: 'Acme', requireTwoFactor: false, administers: true } }));
    expect(await screen.findByRole('radio', { name: 'SAML 2.0' })).toBeChecked();
    expect(await screen.findByText(saml.spAcsUrl)).toBeInTheDocument();
    expect(screen.getAllByText(saml.spEntityId)).toHaveLength(2);
    expect(screen.getByRole('list', { name: 'Signing certificates' })).toHaveTextContent(
      'Certificate SHA-256 AB:CD',
    );
    expect(screen.queryByLabelText('Issuer URL')).not.toBeInTheDocument();
    const idpInitiated = screen.getByRole('switch', {
      name: 'Allow sign-in started at the identity provider',
    });
    expect(idpInitiated).not.toBeChecked();
    expect(idpInitiated).toHaveAccessibleDescription(say(SECURITY_MESSAGES.samlIdpInitiatedRisk));
    expect(screen.getByLabelText('E-mail domains')).toHaveValue('acme.example');

    const user = userEvent.setup();
    await user.click(idpInitiated);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(calls).toHaveBeenCalledWith(
      '/api/organization/saml',
      expect.objectContaining({
        method: 'PUT',
        body: JSON.stringify({
          metadataUrl: saml.metadataUrl,
          metadataXml: '',
          domains: 'acme.example',
          allowIdpInitiated: true,
        }),
      }),
    );
    // Choosing OpenID Connect instead says that saving replaces SAML.
    await user.click(screen.getByRole('radio', { name: 'OpenID Connect' }));
    expect(
      screen.getByText(/Your organisation signs in with SAML 2.0. Saving these settings replaces it/),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Issuer URL')).toHaveValue('');
  });
});
