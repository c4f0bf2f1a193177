// lighthouse: performance and accessibility scores (mobile settings, Lighthouse's defaults) of the landing,
// login and participation pages, in Debian's Chromium, against the built server on the embedded database.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { setUpCheck, startApp } from './app-server.mjs';
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

export async function benchLighthouse() {
  const app = await startApp();
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: FLAGS,
  });
  try {
    const { healthCheckId, participation } = await setUpCheck(app.url);
    const pages = [
      { name: 'landing', url: `${app.url}/` },
      { name: 'login', url: `${app.url}/login` },
      {
        name: 'participation',
        url: `${app.url}/health-check/${healthCheckId}/voting`,
        cookie: participation[0].cookie,
      },
    ];
    const results = [];
    for (const page of pages) {
      // Now and then Lighthouse fails to record a usable trace (a runtimeError such as NO_NAVSTART; seen in about
      // one participation run in ten here): such a run has no scores, so it is made again, twice at most.
      let run;
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
            target: { min: 90 },
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
