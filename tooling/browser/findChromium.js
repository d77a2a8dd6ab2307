// The one Chrome/Chromium finder of the tests and the bootstrap (Playwright's own browser downloads
// are not used). Plain JavaScript so tooling/scripts/bootstrap.mjs can run it before anything is
// installed; findChromium.d.ts types it. gflow itself finds its browser in core
// (src/jobs/browserLaunch.ts) and `gflow doctor` reports it (packages/cli): those are the product's.
import fs from 'node:fs';
import path from 'node:path';

const CANDIDATES = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: [
    path.join(process.env['PROGRAMFILES'] ?? 'C:\\Program Files', 'Google/Chrome/Application/chrome.exe'),
    path.join(process.env['LOCALAPPDATA'] ?? '', 'Google/Chrome/Application/chrome.exe'),
  ],
};

/** GFLOW_CLI_BROWSER_EXECUTABLE when it exists, else the first system Chrome/Chromium; undefined when none. */
export function findChromium(env = process.env, platform = process.platform) {
  const explicit = env['GFLOW_CLI_BROWSER_EXECUTABLE'];
  if (explicit) return fs.existsSync(explicit) ? explicit : undefined;
  return (CANDIDATES[platform] ?? []).find((p) => fs.existsSync(p));
}
