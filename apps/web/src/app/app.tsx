import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import { Toaster } from '@/components/ui/toaster';
import { queryClient } from './query-client';
import { getRouter } from './router';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={getRouter()} />
      <Toaster />
    </QueryClientProvider>
  );
}
