import { DELETION_MESSAGES, type DeletionStatus } from '@pulsecheck/shared/account/deletion';
import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoutes, stubFetch } from '@/test/render';
import { deletionStatusQuery } from './api';
import { DeleteAccountCard } from './delete-account-card';
import { say } from '@/lib/i18n';

const owner: DeletionStatus = {
  confirmWith: 'password',
  authenticatorCode: false,
  ownedOrganizations: [
    {
      id: '00000000-0000-4000-8000-0000000000aa',
      name: 'Acme Rockets',
      admins: [{ userId: 'heir', name: 'Hana Heir', email: 'hana@example.com' }],
    },
  ],
};

function renderCard(status: DeletionStatus) {
  return renderRoutes(
    [
      { path: '/', element: <DeleteAccountCard /> },
      { path: '/login', element: <p>login screen</p> },
    ],
    { seed: [[[...deletionStatusQuery.queryKey], status]] },
  );
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('Delete account card', () => {
  it('makes an owner hand over or delete the organisation first', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch((url) =>
      url.endsWith('/account/deletion')
        ? json({ confirmWith: 'password', authenticatorCode: false, ownedOrganizations: [] })
        : json({ name: 'Hana Heir' }),
    );
    renderCard(owner);
    expect(screen.getByText(/You own Acme Rockets\. Before you can delete your account/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Delete my account' })).toBeDisabled();
    expect(screen.getByLabelText('New owner')).toHaveDisplayValue('Hana Heir (hana@example.com)');
    await user.click(screen.getByRole('button', { name: 'Transfer ownership' }));
    const dialog = screen.getByRole('dialog', { name: 'Transfer Acme Rockets to Hana Heir?' });
    // Handing over asks for the same proof as deleting (issue 30).
    await user.type(within(dialog).getByLabelText('Your password'), 'my-password');
    await user.click(within(dialog).getByRole('button', { name: 'Transfer ownership' }));
    expect(fetch).toHaveBeenCalledWith(
      '/api/organizations/00000000-0000-4000-8000-0000000000aa/transfer',
      expect.objectContaining({
        method: 'POST',
        body: JSON.stringify({
          newOwnerId: 'heir',
          confirm: { method: 'password', password: 'my-password' },
        }),
      }),
    );
    // Handed over: the account can now be deleted.
    expect(await screen.findByRole('button', { name: 'Delete my account' })).toBeEnabled();
  });

  it('asks for the organisation name before its delete button works', async () => {
    const user = userEvent.setup();
    stubFetch(() => json({ ok: true }));
    renderCard(owner);
    await user.click(screen.getByRole('button', { name: 'Delete organisation' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Acme Rockets?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete organisation' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Type Acme Rockets to confirm'), 'Acme Rockets');
    expect(confirm).toBeEnabled();
  });

  it('asks for the password, shows the server refusal, and goes to the login page once deleted', async () => {
    const user = userEvent.setup();
    let answer = json({ error: { code: 'invalid', message: say(DELETION_MESSAGES.passwordIncorrect) } }, 400);
    const fetch = stubFetch(() => answer);
    const { router } = renderCard({
      confirmWith: 'password',
      authenticatorCode: false,
      ownedOrganizations: [],
    });
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete my account' });
    await user.click(confirm);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(say(DELETION_MESSAGES.passwordRequired));
    expect(fetch).not.toHaveBeenCalled();
    // Without two-factor sign-in there is nothing to choose.
    expect(within(dialog).queryByRole('radio')).toBeNull();
    await user.type(within(dialog).getByLabelText('Your password'), 'wrong');
    await user.click(confirm);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      say(DELETION_MESSAGES.passwordIncorrect),
    );
    answer = json({ ok: true });
    await user.click(confirm);
    expect(await screen.findByText('login screen')).toBeVisible();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('offers a code of the authenticator app instead of the password where two-factor sign-in is on', async () => {
    const user = userEvent.setup();
    let answer = json(
      {
        error: {
          code: 'invalid',
          message: say(DELETION_MESSAGES.codeIncorrect),
          fields: { code: say(DELETION_MESSAGES.codeIncorrect) },
        },
      },
      400,
    );
    const fetch = stubFetch(() => answer);
    renderCard({ confirmWith: 'password', authenticatorCode: true, ownedOrganizations: [] });
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    const choice = within(dialog).getByRole('group', { name: 'Confirm with' });
    expect(within(choice).getByRole('radio', { name: 'My password' })).toBeChecked();
    expect(within(dialog).getByLabelText('Your password')).toBeVisible();
    // By keyboard: the arrow key moves the choice to the code.
    within(choice).getByRole('radio', { name: 'My password' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(within(choice).getByRole('radio', { name: 'A code from my authenticator app' })).toBeChecked();
    expect(within(dialog).queryByLabelText('Your password')).toBeNull();
    const code = within(dialog).getByLabelText('Code from your authenticator app');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    const confirm = within(dialog).getByRole('button', { name: 'Delete my account' });
    await user.type(code, '12');
    await user.click(confirm);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(say(SECURITY_MESSAGES.codeRequired));
    expect(fetch).not.toHaveBeenCalled();
    await user.clear(code);
    await user.type(code, '123456');
    await user.click(confirm);
    expect(fetch).toHaveBeenCalledWith(
      '/api/account/delete',
      expect.objectContaining({
        body: JSON.stringify({ confirm: { method: 'authenticator', code: '123456' } }),
      }),
    );
    // The server's message sits on the code field.
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(say(DELETION_MESSAGES.codeIncorrect));
    expect(code).toHaveAccessibleDescription(say(DELETION_MESSAGES.codeIncorrect));
    answer = json({ ok: true });
    await user.clear(code);
    await user.type(code, '654321');
    await user.click(confirm);
    expect(await screen.findByText('login screen')).toBeVisible();
  });

  it('offers the code for deleting an organisation too', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch(() => json({ ok: true }));
    renderCard({ ...owner, authenticatorCode: true });
    await user.click(screen.getByRole('button', { name: 'Delete organisation' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Acme Rockets?' });
    await user.type(within(dialog).getByLabelText('Type Acme Rockets to confirm'), 'Acme Rockets');
    await user.click(within(dialog).getByRole('radio', { name: 'A code from my authenticator app' }));
    await user.type(within(dialog).getByLabelText('Code from your authenticator app'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Delete organisation' }));
    expect(fetch).toHaveBeenCalledWith(
      '/api/organizations/00000000-0000-4000-8000-0000000000aa/delete',
      expect.objectContaining({
        body: JSON.stringify({ name: 'Acme Rockets', confirm: { method: 'authenticator', code: '123456' } }),
      }),
    );
  });

  it('tells an account without a password what a recent sign-in means', async () => {
    const user = userEvent.setup();
    stubFetch(() => json({ ok: true }));
    renderCard({ confirmWith: 'recent-sign-in', authenticatorCode: false, ownedOrganizations: [] });
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(
      screen.getByText(/Your account has no password\. If you signed in more than 5 minutes ago/),
    ).toBeVisible();
    expect(screen.queryByLabelText('Your password')).toBeNull();
  });
});
