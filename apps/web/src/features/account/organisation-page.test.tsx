import { BRANDING_MESSAGES } from '@pulsecheck/shared/branding/rules';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoutes, stubFetch } from '@/test/render';
import { OrganisationPage } from './organisation-page';
import { say, t } from '@/lib/i18n';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const branding = (overrides: Record<string, unknown> = {}) => ({
  branding: { organizationName: 'Teal Harbour', logoUrl: null, accentColor: null, ...overrides },
});

const show = () =>
  renderRoutes([{ path: '/admin/account-settings/organisation', element: <OrganisationPage /> }], {
    at: '/admin/account-settings/organisation',
  });

describe('Organisation settings: Branding card', () => {
  // Typing two colours key by key: more than the default 5 s on a busy machine.
  it(
    'checks the colour as it is typed with the shared messages, and saves a readable one',
    { timeout: 15_000 },
    async () => {
      const user = userEvent.setup();
      const fetch = stubFetch((url, init) =>
        init?.method === 'PUT'
          ? json(branding({ accentColor: '#0f766e' }))
          : json(branding({ logoUrl: '/api/organization-logos/abc' })),
      );
      show();
      expect(await screen.findByRole('heading', { name: 'Branding' })).toBeVisible();
      expect(screen.getByRole('img', { name: 'Teal Harbour logo' })).toHaveAttribute(
        'src',
        '/api/organization-logos/abc',
      );
      expect(screen.getByLabelText('Replace logo')).toHaveAttribute('type', 'file');
      expect(screen.getByRole('button', { name: 'Remove logo' })).toBeEnabled();
      expect(screen.getByLabelText('Accent colour picker')).toHaveAttribute('type', 'color');
      const field = screen.getByLabelText('Accent colour (#rrggbb)');
      expect(field).toHaveAccessibleDescription(say(BRANDING_MESSAGES.colorNone));

      await user.type(field, '#ffff00');
      expect(screen.getByTestId('contrast-message')).toHaveTextContent(/choose a darker colour/);
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByRole('button', { name: 'Save branding' })).toBeDisabled();

      await user.clear(field);
      await user.type(field, '#0F766E');
      expect(screen.getByTestId('contrast-message')).toHaveTextContent(/:1: readable$/);
      await user.click(screen.getByRole('button', { name: 'Save branding' }));
      expect(await screen.findByText(say(BRANDING_MESSAGES.saved), { selector: 'p' })).toBeVisible();
      expect(fetch).toHaveBeenCalledWith(
        '/api/organization/branding',
        expect.objectContaining({ method: 'PUT', body: JSON.stringify({ accentColor: '#0f766e' }) }),
      );
    },
  );

  it('tells a workspace admin who may not change it that only the organisation can', async () => {
    stubFetch(() =>
      json({ error: { code: 'forbidden', message: 'Only organisation admins can do this' } }, 403),
    );
    show();
    expect(await screen.findByText(t('accountOrganisation.onlyAdmins'))).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Save branding' })).not.toBeInTheDocument();
  });
});
