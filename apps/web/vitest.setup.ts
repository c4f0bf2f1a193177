import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import english from 'virtual:messages/en';
import { applyMessages } from './src/lib/i18n';

// The components speak English in their tests, as the spec's strings are English.
applyMessages('en', english);

// jsdom has no ResizeObserver, which Radix controls (checkbox, switch) measure themselves with inside a form.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
