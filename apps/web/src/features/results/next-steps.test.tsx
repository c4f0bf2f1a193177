import { RESULTS_MESSAGES } from '@pulsecheck/shared/results/messages';
import type { ResultsResponse } from '@pulsecheck/shared/results/schemas';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { say } from '@/lib/i18n';
import { renderRoutes, stubFetch } from '@/test/render';
import { NextSteps } from './next-steps';

const ID = '77777777-7777-4777-8777-777777777777';

describe('next steps: follow-up date', () => {
  it("shows the server's refusal under the date, announced", async () => {
    const user = userEvent.setup();
    const fetch = stubFetch(() =>
      Response.json(
        {
          error: {
            code: 'invalid',
            message: RESULTS_MESSAGES.followUpInPast,
            fields: { date: RESULTS_MESSAGES.followUpInPast },
          },
        },
        { status: 400 },
      ),
    );
    // Only the parts Next Steps reads.
    const data = {
      healthCheck: { id: ID },
      viewer: { manages: true },
      followUp: { date: '2026-01-05' },
    } as unknown as ResultsResponse;
    renderRoutes([{ path: '/', element: <NextSteps data={data} inAdmin /> }]);
    const date = screen.getByLabelText('Follow-up date');
    expect(date).toHaveValue('2026-01-05');
    await user.click(screen.getByRole('button', { name: 'Schedule Follow-up' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(say(RESULTS_MESSAGES.followUpInPast));
    expect(date).toHaveAttribute('aria-invalid', 'true');
    expect(date).toHaveAccessibleDescription(say(RESULTS_MESSAGES.followUpInPast));
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toEqual({ date: '2026-01-05' });
  });
});
