// lighthouse: performance and accessibility scores (mobile settings, Lighthouse's defaults) of the landing,
// login and participation pages and of the admin dashboard (a workspace of 20 checks) and results (29
// components with comments), in Debian's Chromium, against the built server on the embedded database.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { GLOBAL_TEMPLATE_ID, call, setUpCheck, startApp } from './app-server.mjs';
import { result } from './report.mjs';

const FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const CHECKS = 20;

/**
 * What the admin screens are measured on: the check of `setUpCheck` completed by its three participants, each
 * rating all 29 components with a comment, and its results released (voting, then summary); and 19 more
 * checks, so the dashboard lists 20. Answers the ids of those 19, which still collect responses.
 */
export async function seedAdminScreens(url, { healthCheckId, adminCookie, participation, componentIds }) {
  const ratings = ['healthy', 'needs-improvement', 'fire-warning'];
  for (const [n, participant] of participation.entries()) {
    await call(url, 'POST', `/api/health-checks/${healthCheckId}/submit`, {
      cookie: participant.cookie,
      body: {
        votes: Object.fromEntries(componentIds.map((id, i) => [id, ratings[(i + n) % ratings.length]])),
        comments: Object.fromEntries(
          componentIds.map((id, i) => [
            id,
            `Participant ${n + 1} on component ${i + 1}: what works, and what does not yet.`,
          ]),
        ),
        last_component_index: componentIds.length - 1,
      },
    });
  }
  for (const to of ['vote', 'summarize'])
    await call(url, 'POST', `/api/health-checks/${healthCheckId}/phase`, {
      cookie: adminCookie,
      body: { to },
    });
  const me = await (await call(url, 'GET', '/api/me', { cookie: adminCookie })).json();
  const { template } = await (
    await call(url, 'GET', `/api/templates/${GLOBAL_TEMPLATE_ID}`, { cookie: adminCookie })
  ).json();
  const collecting = [];
  for (let i = 2; i <= CHECKS; i++) {
    const response = await call(url, 'POST', '/api/health-checks', {
      cookie: adminCookie,
      body: {
        workspaceId: me.user.activeWorkspaceId,
        templateId: GLOBAL_TEMPLATE_ID,
        title: `Team check ${i}`,
        description: '',
        settings: {
          minResponses: 3,
          allowAnonymous: true,
          enableComments: true,
          votesPerPerson: 5,
          showResultsAfterVoting: true,
        },
        enabledComponentIds: template.components.map((c) => c.id),
        teamEmails: [],
        launchKey: `lighthouse-${i}`,
      },
    });
    collecting.push((await response.json()).id);
  }
  return collecting;
}

export async function benchLighthouse() {
  const app = await startApp();
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: FLAGS,
  });
  try {
    const check = await setUpCheck(app.url, { participants: 3, minResponses: 3 });
    const { healthCheckId, participation, adminCookie } = check;
    const [collecting] = await seedAdminScreens(app.url, check);
    // The participation page is measured where people rate: a check still collecting, joined and not yet
    // answered (the first check's participants have submitted, and it is past collection: its page sends them on).
    await call(app.url, 'POST', `/api/health-checks/${collecting}/join`, { cookie: participation[0].cookie });
    const pages = [
      { name: 'landing', url: `${app.url}/` },
      { name: 'login', url: `${app.url}/login` },
      {
        name: 'participation',
        url: `${app.url}/health-check/${collecting}/voting`,
        cookie: participation[0].cookie,
      },
      { name: 'dashboard', url: `${app.url}/admin/dashboard`, cookie: adminCookie },
      { name: 'results', url: `${app.url}/admin/health-check/${healthCheckId}/results`, cookie: adminCookie },
      // Issue 34: the dashboard of an admin who chose Deutsch (longer words, the German catalogue).
      {
        name: 'dashboard-de',
        url: `${app.url}/admin/dashboard`,
        cookie: `${adminCookie}; pulsecheck_language=de`,
        before: () =>
          call(app.url, 'PUT', '/api/account/language', { cookie: adminCookie, body: { language: 'de' } }),
      },
    ];
    // BENCH_LIGHTHOUSE_PAGES=dashboard,results measures only those; BENCH_LIGHTHOUSE_REPORTS=<folder> keeps each
    // page's full Lighthouse report there (what the scores are made of, to profile).
    const only = process.env.BENCH_LIGHTHOUSE_PAGES?.split(',');
    const reports = process.env.BENCH_LIGHTHOUSE_REPORTS;
    if (reports) mkdirSync(reports, { recursive: true });
    const results = [];
    for (const page of pages.filter((p) => !only || only.includes(p.name))) {
      // Now and then Lighthouse fails to record a usable trace (a runtimeError such as NO_NAVSTART; seen in about
      // one participation run in ten here): such a run has no scores, so it is made again, twice at most.
      let run;
      await page.before?.();
      for (let attempt = 1; attempt <= 3; attempt++) {
        run = await lighthouse(page.url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
          ...(page.cookie ? { extraHeaders: { Cookie: page.cookie } } : {}),
        });
        const error = run?.lhr.runtimeError;
        if (!error) break;
        console.log(`  ${page.name}: Lighthouse could not measure (${error.code}), attempt ${attempt} of 3`);
      }
      if (reports && run) writeFileSync(path.join(reports, `${page.name}.json`), JSON.stringify(run.lhr));
      const categories = run?.lhr.categories ?? {};
      const audits = run?.lhr.audits ?? {};
      console.log(
        `  ${page.name}: ` +
          [
            'first-contentful-paint',
            'largest-contentful-paint',
            'total-blocking-time',
            'cumulative-layout-shift',
            'speed-index',
          ]
            .map((id) => `${id} ${audits[id]?.displayValue ?? '?'}`)
            .join(', '),
      );
      for (const category of ['performance', 'accessibility']) {
        const score = Math.round((categories[category]?.score ?? 0) * 100);
        results.push(
          result({
            name: `lighthouse (${page.name})`,
            metric: `${category} score (mobile)`,
            value: score,
            target: { min: category === 'accessibility' ? 100 : 90 },
          }),
        );
      }
    }
    return results;
  } finally {
    await chrome.kill();
    await app.stop();
  }
}
