import type { CurrentUser } from '@pulsecheck/shared/auth/schemas';
import { MAIL_MESSAGES } from '@pulsecheck/shared/mail/delivery';
import { ACCOUNT_MESSAGES, DEFAULT_NOTIFICATION_PREFERENCES } from '@pulsecheck/shared/account/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { currentUser } from '@/test/fixtures';
import { renderRoutes } from '@/test/render';
import { preferencesQuery } from './api';
import { NotificationSettingsPage, type SettingsFrame } from './notification-settings-page';
import { say } from '@/lib/i18n';

function renderPage(frame?: SettingsFrame, session: Partial<CurrentUser> = {}) {
  renderRoutes([{ path: '/', element: <NotificationSettingsPage frame={frame} /> }], {
    seed: [
      [[...preferencesQuery.queryKey], { preferences: DEFAULT_NOTIFICATION_PREFERENCES }],
      [['session'], currentUser(session)],
    ],
  });
}

describe('notification settings', () => {
  it('shows the three cards with the spec defaults', () => {
    renderPage();
    const email = within(screen.getByRole('region', { name: 'Email' }));
    const push = within(screen.getByRole('region', { name: 'Push' }));
    const slack = within(screen.getByRole('region', { name: 'Slack' }));
    for (const name of [
      'Survey Reminders',
      'Phase Changes',
      'Results Ready',
      'New Responses',
      'Weekly Digest',
      'Monthly Reports',
    ]) {
      expect(email.getByRole('switch', { name })).toBeChecked();
    }
    expect(email.getByRole('switch', { name: 'Team Updates' })).not.toBeChecked();
    expect(push.getByRole('switch', { name: 'Survey Reminders' })).not.toBeChecked();
    for (const name of ['New Responses', 'Completion Milestones', 'Team Updates']) {
      expect(push.getByRole('switch', { name })).toBeChecked();
    }
    expect(slack.getByRole('switch', { name: 'Enable Slack notifications' })).toBeChecked();
    expect(slack.getByLabelText('Channel')).toHaveValue('#survey-updates');
    expect(slack.getByRole('switch', { name: 'Survey Reminders' })).toBeChecked();
    expect(slack.getByRole('switch', { name: 'New Responses' })).not.toBeChecked();
    expect(slack.getByRole('switch', { name: 'Completion Milestones' })).toBeChecked();
    expect(slack.getByRole('switch', { name: 'Daily Digest' })).not.toBeChecked();
  });

  it('shows the channel box only while Slack is enabled, and refuses a webhook that is not https', async () => {
    const user = userEvent.setup();
    renderPage();
    const slack = within(screen.getByRole('region', { name: 'Slack' }));
    await user.click(slack.getByRole('switch', { name: 'Enable Slack notifications' }));
    expect(slack.queryByLabelText('Channel')).toBeNull();
    await user.click(slack.getByRole('switch', { name: 'Enable Slack notifications' }));
    await user.type(slack.getByLabelText('Incoming webhook URL'), 'http://example.com/hook');
    await user.click(screen.getAllByRole('button', { name: 'Save Changes' })[0]!);
    expect(await slack.findByText(say(ACCOUNT_MESSAGES.webhookHttps))).toBeInTheDocument();
  });

  it('says on the Push card that this browser cannot show notifications when it has no Notification API', () => {
    // jsdom, like some browsers, has no Notification API.
    expect('Notification' in window).toBe(false);
    renderPage();
    const push = within(screen.getByRole('region', { name: 'Push' }));
    expect(push.getByRole('status')).toHaveTextContent(
      'This browser cannot show notifications, so you see them on the bell only.',
    );
    expect(push.queryByRole('button', { name: 'Allow browser notifications' })).toBeNull();
  });

  it('shows a participant only what can reach them, with no admin header', () => {
    renderPage('participant');
    expect(screen.queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Back to Account Settings' })).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Notification Settings' })).toBeInTheDocument();
    const email = within(screen.getByRole('region', { name: 'Email' }));
    expect(email.getAllByRole('switch').map((s) => s.getAttribute('aria-checked'))).toHaveLength(3);
    for (const name of ['Survey Reminders', 'Phase Changes', 'Results Ready']) {
      expect(email.getByRole('switch', { name })).toBeChecked();
    }
    const push = within(screen.getByRole('region', { name: 'Push' }));
    expect(push.getAllByRole('switch')).toHaveLength(1);
    expect(push.getByRole('switch', { name: 'Survey Reminders' })).toBeInTheDocument();
    for (const name of ['New Responses', 'Completion Milestones', 'Team Updates']) {
      expect(push.queryByRole('switch', { name })).toBeNull();
    }
    const slack = within(screen.getByRole('region', { name: 'Slack' }));
    expect(slack.getByRole('switch', { name: 'Survey Reminders' })).toBeInTheDocument();
    for (const name of ['New Responses', 'Completion Milestones', 'Daily Digest']) {
      expect(slack.queryByRole('switch', { name })).toBeNull();
    }
    expect(screen.getAllByRole('button', { name: 'Save Changes' })).toHaveLength(2);
  });

  it('says above the e-mail switches that e-mail is off on this server, and not otherwise', () => {
    renderPage('admin', { mailEnabled: false });
    const email = within(screen.getByRole('region', { name: 'Email' }));
    expect(email.getByRole('status')).toHaveTextContent(say(MAIL_MESSAGES.settingsOff));
  });

  it('does not warn about e-mail while the server sends it', () => {
    renderPage('admin', { mailEnabled: true });
    expect(screen.queryByText(say(MAIL_MESSAGES.settingsOff))).toBeNull();
  });
});
