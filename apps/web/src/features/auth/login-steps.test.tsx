import { SECURITY_MESSAGES, SSO_ERRORS } from '@pulsecheck/shared/auth/security-messages';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentUser } from '@/test/fixtures';
import { renderRoutes, stubFetch } from '@/test/render';
import { LoginPage } from './login-page';
import { say } from '@/lib/i18n';

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderLogin(at = '/login') {
  return renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/admin/dashboard', element: <p>Dashboard</p> },
    ],
    { at, seed: [[['session'], null]] },
  );
}

describe('login: the other ways in', () => {
  it('asks for the second step after the password, and signs in with a code', async () => {
    const calls = stubFetch((url) => {
      if (url.endsWith('/api/login')) return Response.json({ twoFactorRequired: true });
      if (url.endsWith('/api/login/two-factor')) return Response.json({ user: currentUser() });
      return Response.json({}, { status: 404 });
    });
    renderLogin();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByRole('alert')).toHaveTextContent(say(SECURITY_MESSAGES.codeRequired));
    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByLabelText('Trust this device for 30 days'));
    await user.click(screen.getByLabelText('Authentication code'));
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Dashboard')).toBeInTheDocument();
    const last = calls.mock.calls.at(-1)!;
    expect(last[1]?.body).toBe(JSON.stringify({ code: '123456', trustDevice: true }));
  });

  it('offers a recovery code instead, and shows the refusal', async () => {
    stubFetch((url) =>
      url.endsWith('/api/login')
        ? Response.json({ twoFactorRequired: true })
        : Response.json(
            { error: { code: 'unauthenticated', message: say(SECURITY_MESSAGES.recoveryCodeInvalid) } },
            { status: 401 },
          ),
    );
    renderLogin();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText('Recovery code'), 'abcde-12345');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(say(SECURITY_MESSAGES.recoveryCodeInvalid));
  });

  it('points to SSO when the organisation requires it, and explains a refused SSO sign-in', async () => {
    stubFetch(() =>
      Response.json(
        { error: { code: 'sso_required', message: say(SECURITY_MESSAGES.ssoRequired) } },
        { status: 403 },
      ),
    );
    renderLogin('/login?sso_error=email_unverified');
    expect(screen.getByRole('alert')).toHaveTextContent(say(SSO_ERRORS.email_unverified));
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@acme.example');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Your organisation uses single sign-on:')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign in with SSO' }));
    expect(screen.getByRole('heading', { name: 'Sign in with SSO' })).toBeInTheDocument();
    expect(screen.getByLabelText('Work email')).toHaveValue('ada@acme.example');
  });
});
