// Finds a system Chrome/Chromium (Playwright's own browser downloads are not used).
import fs from 'node:fs';
import path from 'node:path';

const CANDIDATES = {
  linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium'],
  darwin: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium'],
  win32: [
    path.join(process.env['PROGRAMFILES'] ?? 'C:\\Program Files', 'Google/Chrome/Application/chrome.exe'),
    path.join(process.env['LOCALAPPDATA'] ?? '', 'Google/Chrome/Application/chrome.exe'),
  ],
};

export function findChromium(env = process.env) {
  const explicit = env['GFLOW_CLI_BROWSER_EXECUTABLE'];
  if (explicit) return fs.existsSync(explicit) ? explicit : undefined;
  return (CANDIDATES[process.platform] ?? []).find((p) => fs.existsSync(p));
}
