import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentUser } from '@/test/fixtures';
import { renderRoutes, stubFetch } from '@/test/render';
import { LoginPage } from './login-page';
import { say } from '@/lib/i18n';

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderLogin() {
  return renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/admin/dashboard', element: <p>Dashboard</p> },
    ],
    { at: '/login', seed: [[['session'], null]] },
  );
}

// The sign-in form is a light form (lib/light-form.ts), validated by the shared schema as the other forms are.
describe('login: the form', () => {
  it('names the missing fields on submit, focuses the first, and clears each as it is fixed', async () => {
    const calls = stubFetch(() => Response.json({}, { status: 404 }));
    renderLogin();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(say(AUTH_MESSAGES.emailRequired))).toBeInTheDocument();
    expect(screen.getByText(say(AUTH_MESSAGES.passwordRequired))).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveFocus();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    expect(await screen.findByText(say(AUTH_MESSAGES.emailInvalid))).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await waitFor(() => expect(screen.queryByText(say(AUTH_MESSAGES.emailInvalid))).not.toBeInTheDocument());
    expect(screen.getByText(say(AUTH_MESSAGES.passwordRequired))).toBeInTheDocument();
    expect(calls).not.toHaveBeenCalled();
  });

  it('puts the server’s field errors on their fields, and signs in with what was typed', async () => {
    let refuse = true;
    const calls = stubFetch((url) => {
      if (!url.endsWith('/api/login')) return Response.json({}, { status: 404 });
      if (refuse) {
        refuse = false;
        return Response.json(
          { error: { code: 'invalid', message: 'Invalid input', fields: { email: 'No such address here' } } },
          { status: 400 },
        );
      }
      return Response.json({ user: currentUser() });
    });
    renderLogin();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('No such address here')).toBeInTheDocument();
    // The field error says it all: no banner repeats it.
    expect(screen.queryByText('Invalid input')).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('Remember me'));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Dashboard')).toBeInTheDocument();
    expect(calls.mock.calls.at(-1)![1]?.body).toBe(
      JSON.stringify({ email: 'ada@example.com', password: 'correct-horse', rememberMe: true }),
    );
  });
});

describe('login: where it goes next', () => {
  it("follows an e-mailed link's returnTo to a page of this app, never to another origin", async () => {
    stubFetch((url) =>
      url.endsWith('/api/login')
        ? Response.json({ user: currentUser() })
        : Response.json({}, { status: 404 }),
    );
    for (const [returnTo, lands] of [
      ['/join/abc', 'Join page'],
      ['//evil.example/x', 'Dashboard'],
      ['/\\evil.example', 'Dashboard'],
      ['https://evil.example', 'Dashboard'],
    ] as const) {
      const { router } = renderRoutes(
        [
          { path: '/login', element: <LoginPage /> },
          { path: '/join/:id', element: <p>Join page</p> },
          { path: '/admin/dashboard', element: <p>Dashboard</p> },
        ],
        { at: `/login?returnTo=${encodeURIComponent(returnTo)}`, seed: [[['session'], null]] },
      );
      const user = userEvent.setup();
      await user.type(screen.getByLabelText('Email'), 'ada@example.com');
      await user.type(screen.getByLabelText('Password'), 'correct-horse');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      expect(await screen.findByText(lands)).toBeInTheDocument();
      router.dispose();
      cleanup();
    }
  });
});
