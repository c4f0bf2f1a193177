import type { Browser, Page } from '@playwright/test';
import { joinedParticipant, launchThroughApi } from './accounts';
import { expect } from './fixtures';

/**
 * The trackers' browser tests (issue 36): a check in summarize with one response, as the facilitator has it after
 * collecting and voting, whose action items go to the tracker. Answers the check's id.
 */
export async function checkWithResults(
  page: Page,
  browser: Browser,
  options: { mailDir: string; workspaceId: string; title: string },
) {
  const check = await launchThroughApi(page, { workspaceId: options.workspaceId, title: options.title });
  const context = await browser.newContext();
  await joinedParticipant(context, options.mailDir, check.id, 'Rae Rater');
  const read = (await (await context.request.get(`/api/health-checks/${check.id}/participation`)).json()) as {
    components: { id: string }[];
  };
  const submitted = await context.request.post(`/api/health-checks/${check.id}/submit`, {
    data: {
      votes: Object.fromEntries(read.components.map((c) => [c.id, 'healthy'])),
      comments: {},
      last_component_index: 0,
    },
  });
  expect(submitted.status()).toBe(200);
  await context.close();
  for (const to of ['vote', 'summarize']) {
    const moved = await page.request.post(`/api/health-checks/${check.id}/phase`, { data: { to } });
    expect(moved.status(), await moved.text()).toBe(200);
  }
  return check.id;
}
