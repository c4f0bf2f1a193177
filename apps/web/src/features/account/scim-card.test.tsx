import { SCIM_CARD, type ScimSettings } from '@pulsecheck/shared/scim/rules';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes, stubFetch } from '@/test/render';
import { ScimCard } from './scim-card';
import { say, t } from '@/lib/i18n';

const settings = (overrides: Partial<ScimSettings> = {}): ScimSettings => ({
  baseUrl: 'https://pulse.example/scim/v2',
  mayManage: true,
  token: null,
  verifiedDomains: ['acme.test'],
  provisionedUsers: 0,
  ...overrides,
});

const renderCard = (value: ScimSettings) =>
  renderRoutes([{ path: '/security', element: <ScimCard /> }], {
    at: '/security',
    seed: [[['organization', 'scim'], value]],
  });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("'SCIM provisioning' card", () => {
  it('shows the base URL and creates a token, shown once', async () => {
    const token = { start: 'pcscim_abcd', createdAt: '2026-11-28T10:00:00.000Z', lastUsedAt: null };
    const calls = stubFetch(() =>
      Response.json({ settings: settings({ token }), secret: 'pcscim_abcdSECRET' }),
    );
    renderCard(settings());
    expect(screen.getByLabelText(say(SCIM_CARD.baseUrlLabel))).toHaveValue('https://pulse.example/scim/v2');
    expect(screen.getByText(say(SCIM_CARD.noToken))).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: say(SCIM_CARD.create) }));
    expect(await screen.findByLabelText(t('accountScim.newToken'))).toHaveValue('pcscim_abcdSECRET');
    expect(calls.mock.calls[0]![0]).toMatch(/\/api\/organization\/scim\/token$/);
    await user.click(screen.getByRole('button', { name: 'I have copied the token' }));
    expect(screen.queryByDisplayValue('pcscim_abcdSECRET')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: say(SCIM_CARD.rotate) })).toBeInTheDocument();
  });

  it('asks before rotating, and tells organisation admins that only the owner may', async () => {
    const token = { start: 'pcscim_abcd', createdAt: '2026-11-28T10:00:00.000Z', lastUsedAt: null };
    const calls = stubFetch(() => Response.json({ settings: settings({ token }), secret: 'pcscim_new' }));
    renderCard(settings({ token }));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: say(SCIM_CARD.rotate) }));
    expect(screen.getByText(say(SCIM_CARD.rotateWarning))).toBeInTheDocument();
    expect(calls).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByText(say(SCIM_CARD.rotateWarning))).not.toBeInTheDocument();
  });

  it('is read-only for organisation admins', () => {
    renderCard(settings({ mayManage: false, verifiedDomains: [] }));
    expect(screen.getByText(say(SCIM_CARD.ownerOnly))).toBeInTheDocument();
    expect(screen.getByText(say(SCIM_CARD.domainsNeeded))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: say(SCIM_CARD.create) })).not.toBeInTheDocument();
  });
});
