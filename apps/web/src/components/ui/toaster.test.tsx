import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast, Toaster } from './toaster';

describe('Toaster', () => {
  it('loads sonner on the first toast and shows it, with toasts raised before it was loaded', async () => {
    const { container } = render(<Toaster />);
    expect(container).toBeEmptyDOMElement();
    toast.success('Progress saved', { duration: 5000 });
    toast.error('Failed to save progress');
    expect(await screen.findByText('Progress saved')).toBeInTheDocument();
    expect(await screen.findByText('Failed to save progress')).toBeInTheDocument();
  });
});
