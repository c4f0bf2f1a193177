import type { Page } from '@playwright/test';
import type { LaunchLoopInput } from '@pulsecheck/shared/loops/schemas';
import { loopBody } from '../../apps/server/src/test/loop-body';
import { expect } from './fixtures';

/**
 * Launches a loop through the API as the admin signed in on `page` ('Start now', to everyone in the workspace);
 * `overrides` replace fields of the definition. Answers its id.
 */
export async function launchLoop(
  page: Page,
  workspaceId: string,
  title: string,
  overrides: Partial<LaunchLoopInput> = {},
) {
  const response = await page.request.post('/api/loops', {
    data: loopBody(workspaceId, { title, description: 'Launched by a browser test', ...overrides }),
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}
