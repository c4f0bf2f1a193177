// Runs the Playwright browser tests in Debian's Chromium. Without Chromium it says so loudly and skips them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  Boolean,
);
const chromium = candidates.find((candidate) => existsSync(candidate));
if (!chromium) {
  const line = '!'.repeat(78);
  console.warn(`\n${line}\n!! No Chromium found (looked at ${candidates.join(', ')}).`);
  console.warn('!! The browser tests are SKIPPED. Install it with: apt-get install -y chromium');
  console.warn(`!! or set CHROMIUM_PATH.\n${line}\n`);
  process.exit(0);
}
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium },
});
process.exit(result.status ?? 1);
