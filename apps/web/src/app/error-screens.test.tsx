import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ErrorPage, RootErrorBoundary } from './error-screens';

function Boom(): never {
  throw new Error('The chart exploded');
}

describe('error screens', () => {
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
});
