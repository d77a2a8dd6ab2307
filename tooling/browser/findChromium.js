// The one Chrome/Chromium finder of the tests and the bootstrap (Playwright's own browser downloads
// are not used). Plain JavaScript so tooling/scripts/bootstrap.mjs can run it before anything is
// installed; findChromium.d.ts types it. gflow itself finds its browser in core
// (src/jobs/browserLaunch.ts) and `gflow doctor` reports it (packages/cli): those are the product's.
//
// The tests prefer Chromium's headless shell when it is installed (Debian's chromium-headless-shell:
// the same Blink and V8 build as the chromium package, without the desktop browser around them;
// Playwright's own default for headless runs). Every test browser is headless, and on a loaded
// 2-core machine the shell costs a fifth to a third less CPU per launch and page than the full
// browser's new headless mode (docs/TESTING.md has the measurement). GFLOW_TEST_BROWSER=full keeps
// the full browser (`npm test` runs the second Node line's journeys that way, and the demo runs
// what gflow itself finds), so what users launch is still proved on every surface.
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

/** Chromium's headless shell where a system package puts it (Debian: chromium-headless-shell). */
const HEADLESS_SHELLS = { linux: ['/usr/bin/chromium-headless-shell'] };

/** The Debian package of the headless shell (the bootstrap installs it beside chromium, as root). */
export const HEADLESS_SHELL_PACKAGE = 'chromium-headless-shell';

/** The first system Chrome/Chromium (the full browser, as gflow itself would find one); undefined when none. */
export function findFullChromium(platform = process.platform, exists = fs.existsSync) {
  return (CANDIDATES[platform] ?? []).find((p) => exists(p));
}

/** Chromium's headless shell when installed; undefined when not. */
export function findHeadlessShell(platform = process.platform, exists = fs.existsSync) {
  return (HEADLESS_SHELLS[platform] ?? []).find((p) => exists(p));
}

/**
 * The tests' browser: GFLOW_CLI_BROWSER_EXECUTABLE when it exists (undefined when it does not),
 * else the headless shell unless GFLOW_TEST_BROWSER=full, else the first system Chrome/Chromium;
 * undefined when none. `exists` is the file check (tests pass their own).
 */
export function findChromium(env = process.env, platform = process.platform, exists = fs.existsSync) {
  const explicit = env['GFLOW_CLI_BROWSER_EXECUTABLE'];
  if (explicit) return exists(explicit) ? explicit : undefined;
  const shell = env['GFLOW_TEST_BROWSER'] === 'full' ? undefined : findHeadlessShell(platform, exists);
  return shell ?? findFullChromium(platform, exists);
}
