import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startLanguage } from './lib/i18n';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');
// As a transition, the first render runs in slices that leave the main thread free in between, instead of one
// long task (the static shell in index.html stays on screen until it is done).
// The language's catalogue first: the page's first paint is in its language, with no English before it.
void startLanguage().then(() =>
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  }),
);
