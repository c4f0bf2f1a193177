import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import { FollowAccountLanguage } from '@/components/language-menu';
import { Toaster } from '@/components/ui/toaster';
import { useLocale } from '@/lib/i18n';
import { queryClient } from './query-client';
import { getRouter } from './router';

export function App() {
  // A change of language renders everything again in it (lib/i18n.tsx); the fetched data stays.
  const locale = useLocale();
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider key={locale} router={getRouter()} />
      <Toaster key={`toaster-${locale}`} />
      <FollowAccountLanguage />
    </QueryClientProvider>
  );
}
