import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorPage, RootErrorBoundary } from './error-screens';
import { routes } from './router';

// A screen that crashes, loaded by the real router at /terms.
vi.mock('@/features/landing/legal-pages', () => ({
  TermsPage: () => {
    throw new Error('The terms exploded');
  },
  PrivacyPage: () => <p>privacy</p>,
}));

function Boom(): never {
  throw new Error('The chart exploded');
}

describe('error screens', () => {
  afterEach(cleanup);

  it('the top-level boundary shows the message, Refresh Page and Go to Dashboard', async () => {
    const router = createMemoryRouter([
      { path: '/', element: <Boom />, errorElement: <RootErrorBoundary /> },
    ]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: 'Oops! Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('The chart exploded')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/admin/dashboard');
  });

  it('/error shows the message handed over by navigation', async () => {
    const router = createMemoryRouter([{ path: '/error', element: <ErrorPage /> }], {
      initialEntries: [{ pathname: '/error', state: { message: 'Failed to set up participation.' } }],
    });
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('Failed to set up participation.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });

  it("a crash in one screen shows that route's own boundary: 'An unexpected error occurred' with Try Again", async () => {
    const router = createMemoryRouter(routes, { initialEntries: ['/terms'] });
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: 'An unexpected error occurred' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
    expect(screen.queryByText('The terms exploded')).not.toBeInTheDocument();
  });
});
