import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');
// As a transition, the first render runs in slices that leave the main thread free in between, instead of one
// long task (the static shell in index.html stays on screen until it is done).
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
