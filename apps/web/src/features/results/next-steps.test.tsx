import { RESULTS_MESSAGES, type ResultsResponse } from '@pulsecheck/shared/results/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NextSteps } from './next-steps';

const ID = '77777777-7777-4777-8777-777777777777';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('next steps: follow-up date', () => {
  it("shows the server's refusal under the date, announced", async () => {
    const user = userEvent.setup();
    const fetch = vi.fn(async () =>
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
    vi.stubGlobal('fetch', fetch);
    // Only the parts Next Steps reads.
    const data = {
      healthCheck: { id: ID },
      viewer: { manages: true },
      followUp: { date: '2026-01-05' },
    } as unknown as ResultsResponse;
    const router = createMemoryRouter([{ path: '/', element: <NextSteps data={data} inAdmin /> }]);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const date = screen.getByLabelText('Follow-up date');
    expect(date).toHaveValue('2026-01-05');
    await user.click(screen.getByRole('button', { name: 'Schedule Follow-up' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(RESULTS_MESSAGES.followUpInPast);
    expect(date).toHaveAttribute('aria-invalid', 'true');
    expect(date).toHaveAccessibleDescription(RESULTS_MESSAGES.followUpInPast);
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toEqual({ date: '2026-01-05' });
  });
});
