import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import type { InvitationInfo } from '@pulsecheck/shared/team/schemas';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { currentUser } from '@/test/fixtures';
import { renderRoutes, stubFetch } from '@/test/render';
import { AcceptInvitationPage } from './accept-invitation-page';
import { say } from '@/lib/i18n';

const TOKEN = 'invitation-token';
const invitation: InvitationInfo = {
  state: 'valid',
  email: 'ada@example.com',
  workspaceName: 'Rocket Team',
  invitedBy: 'Alex Admin',
  role: 'Engineer',
  accountExists: true,
};

function renderPage() {
  return renderRoutes(
    [
      { path: '/invite/:token', element: <AcceptInvitationPage /> },
      { path: '/admin/dashboard', element: <p>Dashboard</p> },
    ],
    {
      at: `/invite/${TOKEN}`,
      seed: [
        [['session'], null],
        [['invitation', TOKEN], invitation],
      ],
    },
  );
}

const unauthenticated = (message: string) =>
  Response.json({ error: { code: 'unauthenticated', message } }, { status: 401 });

describe('accepting an invitation with an account that has two-factor sign-in on', () => {
  it('asks for the code in the page after the password, then joins', async () => {
    let codeAnswer = unauthenticated(say(SECURITY_MESSAGES.codeInvalid));
    const calls = stubFetch((url) => {
      if (url.endsWith('/api/login')) return Response.json({ twoFactorRequired: true });
      if (url.endsWith('/api/login/two-factor')) return codeAnswer;
      if (url.endsWith(`/api/invitations/${TOKEN}/accept`))
        return Response.json({ workspaceId: 'w-2', redirectTo: '/admin/dashboard' });
      if (url.endsWith('/api/me')) return Response.json({ user: currentUser() });
      return Response.json({}, { status: 404 });
    });
    const { router } = renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in and join' }));

    // Still the invitation's page, now with the second step.
    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Join Rocket Team' })).toBeVisible();
    const code = screen.getByLabelText('Authentication code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(code, '123456');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(say(SECURITY_MESSAGES.codeInvalid));
    expect(router.state.location.pathname).toBe(`/invite/${TOKEN}`);

    codeAnswer = Response.json({ user: currentUser() });
    await user.clear(code);
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Dashboard')).toBeVisible();
    const paths = calls.mock.calls.map(
      ([input]) => new URL(input instanceof Request ? input.url : input.toString(), 'http://x').pathname,
    );
    // (The invitation may be fetched again once the session changed: replaceSession drops cached data.)
    expect(paths.slice(0, 5)).toEqual([
      '/api/login',
      '/api/login/two-factor',
      '/api/login/two-factor',
      `/api/invitations/${TOKEN}/accept`,
      '/api/me',
    ]);
    const secondStep = calls.mock.calls[2]!;
    expect(secondStep[1]?.body).toBe(JSON.stringify({ code: '654321', trustDevice: false }));
  });

  it('takes a recovery code too, and goes back to the password on Start again', async () => {
    stubFetch((url) =>
      url.endsWith('/api/login')
        ? Response.json({ twoFactorRequired: true })
        : unauthenticated(say(SECURITY_MESSAGES.recoveryCodeInvalid)),
    );
    renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in and join' }));
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText('Recovery code'), 'abcde-12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(say(SECURITY_MESSAGES.recoveryCodeInvalid));
    await user.click(screen.getByRole('button', { name: 'Start again' }));
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Sign in and join' })).toBeVisible();
  });
});
