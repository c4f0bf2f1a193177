import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * Launches a loop through the API as the admin signed in on `page` ('Start now', to everyone in the workspace);
 * `overrides` replace fields of the definition. Answers its id.
 */
export async function launchLoop(
  page: Page,
  workspaceId: string,
  title: string,
  overrides: Record<string, unknown> = {},
) {
  const response = await page.request.post('/api/loops', {
    data: {
      workspaceId,
      templateId: null,
      launchKey: `e2e-${Date.now()}-${Math.random()}`,
      title,
      description: 'Launched by a browser test',
      questions: [
        { kind: 'scale', text: 'How focused were you?', lowLabel: 'Scattered', highLabel: 'Deep focus' },
        { kind: 'enps', text: 'Would you recommend working here?' },
        { kind: 'text', text: 'Anything else?' },
      ],
      audience: { kind: 'all' },
      cadence: 'weekly',
      weekday: 'monday',
      time: '09:00',
      timeZone: 'Europe/Berlin',
      roundDays: 3,
      anonymous: true,
      minResponses: 3,
      reminder: true,
      start: 'now',
      ...overrides,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}
