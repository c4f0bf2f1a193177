import { DEFAULT_SETTINGS, type HealthCheckDetail } from '@pulsecheck/shared/health-checks/schemas';
import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoutes, stubFetch } from '@/test/render';
import { say, t } from '@/lib/i18n';
import { ManagePage } from './manage-page';

const ID = '33333333-3333-4333-8333-333333333333';

function renderSettings(participants: number, answer: () => Response) {
  const fetch = stubFetch(answer);
  const check: HealthCheckDetail = {
    id: ID,
    title: 'Settings walk',
    description: null,
    phase: 'collect',
    status: 'active',
    settings: DEFAULT_SETTINGS,
    createdAt: '2026-11-01T00:00:00Z',
    phaseStartedAt: '2026-11-01T00:00:00Z',
    completedAt: null,
    workspace: { id: 'w', name: 'Settings Co' },
    participants: { total: participants, completed: 0 },
    completionRate: 0,
    allCompleted: false,
    joinUrl: `http://localhost/join/${ID}`,
    canManage: true,
  };
  renderRoutes([{ path: '/manage/:healthCheckId', element: <ManagePage /> }], {
    at: `/manage/${ID}`,
    seed: [[['health-check', ID], { healthCheck: check }]],
  });
  return { fetch, requests: () => fetch.mock.calls.length };
}

describe('manage: Settings tab', () => {
  it('refuses out-of-range numbers and, once people have joined, a lower minimum, before asking the server', async () => {
    const user = userEvent.setup();
    const api = renderSettings(1, () => Response.json({ settings: DEFAULT_SETTINGS }));
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    expect(screen.getByRole('switch', { name: 'Anonymous responses' })).toBeDisabled();
    const minimum = screen.getByLabelText('Minimum responses');
    expect(minimum).toHaveAttribute('min', String(DEFAULT_SETTINGS.minResponses));

    await user.clear(minimum);
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText(say(HEALTH_CHECK_MESSAGES.minResponsesRange))).toHaveAttribute(
      'role',
      'alert',
    );

    await user.type(minimum, '2');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(
      await screen.findByText(
        t(HEALTH_CHECK_MESSAGES.minResponsesOnlyRises, { count: DEFAULT_SETTINGS.minResponses }),
      ),
    ).toHaveAttribute('role', 'alert');
    expect(screen.queryByText(say(HEALTH_CHECK_MESSAGES.minResponsesRange))).toBeNull();
    expect(api.requests()).toBe(0);
  });

  it("puts the server's field errors on the fields", async () => {
    const user = userEvent.setup();
    const message = t(HEALTH_CHECK_MESSAGES.minResponsesOnlyRises, { count: DEFAULT_SETTINGS.minResponses });
    const api = renderSettings(0, () =>
      Response.json(
        {
          error: {
            code: 'conflict',
            message: HEALTH_CHECK_MESSAGES.settingsOnlyStricter,
            fields: { minResponses: message },
          },
        },
        { status: 409 },
      ),
    );
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    const minimum = screen.getByLabelText('Minimum responses');
    await user.clear(minimum);
    await user.type(minimum, '1');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText(message)).toHaveAttribute('role', 'alert');
    expect(minimum).toHaveAttribute('aria-invalid', 'true');
    const [, init] = api.fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toEqual({ ...DEFAULT_SETTINGS, minResponses: 1 });
  });
});
