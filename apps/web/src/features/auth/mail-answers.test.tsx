import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import { MAIL_MESSAGES, type MailState } from '@pulsecheck/shared/mail/delivery';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { renderRoutes, stubFetch } from '@/test/render';
import { LoginPage } from './login-page';
import { SignupPage } from './signup-page';
import { say } from '@/lib/i18n';

/**
 * What the signed-out screens say after an action that e-mails: "we sent" only when the server is sending
 * (`mail: 'sending'`); with e-mail switched off on the server (`mail: 'off'`, MAIL_DISABLED) the spec's failure
 * wording and why.
 */

function renderSignedOut(element: ReactNode, mail: MailState) {
  const fetch = stubFetch((url) =>
    url === '/api/me'
      ? Response.json({ error: { code: 'unauthenticated', message: 'No session' } }, { status: 401 })
      : Response.json({ ok: true, mail }),
  );
  renderRoutes(
    [
      { path: '/', element },
      { path: '/login', element: <p>Login</p> },
    ],
    { seed: [[['session'], null]] },
  );
  return fetch;
}

async function signUp() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Full name'), 'Ada Admin');
  await user.type(screen.getByLabelText('Work email'), 'ada@example.com');
  await user.type(screen.getByLabelText(/Your role/), 'CTO');
  await user.type(screen.getByLabelText(/^Password/), 'correct-horse-battery');
  await user.type(screen.getByLabelText('Confirm password'), 'correct-horse-battery');
  await user.type(screen.getByLabelText('Company name'), 'Acme');
  await user.selectOptions(screen.getByLabelText('Company size'), '11-50');
  await user.click(screen.getByRole('checkbox'));
  await user.click(screen.getByRole('button', { name: 'Create workspace' }));
}

async function askForReset() {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
  await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await user.click(screen.getByRole('button', { name: 'Send reset link' }));
}

describe('admin sign-up', () => {
  it("says 'Verification email could not be sent. Please try again or contact support.' when e-mail is off", async () => {
    renderSignedOut(<SignupPage />, 'off');
    await signUp();
    expect(await screen.findByRole('heading', { name: 'Email could not be sent' })).toBeInTheDocument();
    expect(screen.getByText(say(AUTH_MESSAGES.verificationNotSent))).toHaveTextContent(
      /^Verification email could not be sent\. Please try again or contact support\.$/,
    );
    expect(screen.getByText(say(MAIL_MESSAGES.off))).toBeInTheDocument();
    expect(screen.queryByText(/We sent/)).not.toBeInTheDocument();
    expect(screen.queryByText(say(AUTH_MESSAGES.signupSuccess))).not.toBeInTheDocument();
  });

  it('says to check the e-mail when it is on its way', async () => {
    renderSignedOut(<SignupPage />, 'sending');
    await signUp();
    expect(await screen.findByText(say(AUTH_MESSAGES.signupSuccess))).toBeInTheDocument();
    expect(screen.getByText('We sent a verification link to ada@example.com.')).toBeInTheDocument();
  });
});

describe('forgot password', () => {
  it('says no reset link was sent when e-mail is off', async () => {
    renderSignedOut(<LoginPage />, 'off');
    await askForReset();
    expect(await screen.findByText(say(AUTH_MESSAGES.resetFailed))).toBeInTheDocument();
    expect(screen.getByText(say(MAIL_MESSAGES.off))).toBeInTheDocument();
    expect(screen.queryByText(/we sent a link/)).not.toBeInTheDocument();
  });

  it('says a link was sent if the account exists when e-mail is on', async () => {
    renderSignedOut(<LoginPage />, 'sending');
    await askForReset();
    expect(
      await screen.findByText(
        /If an account exists for ada@example.com, we sent a link to reset its password/,
      ),
    ).toBeInTheDocument();
  });
});
