import { useEffect, useRef } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import { FollowAccountLanguage } from '@/components/language-menu';
import { Toaster } from '@/components/ui/toaster';
import { useLocale } from '@/lib/i18n';
import { queryClient } from './query-client';
import { getRouter } from './router';

export function App() {
  // A change of language renders everything again in it (lib/i18n.tsx), and fetches again what the server
  // words in the reader's language (the catalogue's components and questions, its messages).
  const locale = useLocale();
  const shown = useRef(locale);
  useEffect(() => {
    if (shown.current === locale) return;
    shown.current = locale;
    void queryClient.invalidateQueries();
  }, [locale]);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider key={locale} router={getRouter()} />
      <Toaster key={`toaster-${locale}`} />
      <FollowAccountLanguage />
    </QueryClientProvider>
  );
}
