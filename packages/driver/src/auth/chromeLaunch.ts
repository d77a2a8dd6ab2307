import { LOGIN_URL } from './loginTypes.js';

/**
 * The plain Chrome subprocess of `auth login --browser chrome` (flow-wire §2 "Login"): the profile
 * dir, no first-run UI, a 1920×1080 window, the basic password store, and no remote-debugging
 * port (an exposed port was measured to earn PUBLIC_ERROR_UNUSUAL_ACTIVITY).
 */
export function chromeLoginArgs(
  profileDir: string,
  options: { extraArgs?: readonly string[]; ignoreHTTPSErrors?: boolean } = {},
): string[] {
  const extra = (options.extraArgs ?? []).filter(
    (a) => !/^--remote-debugging-(port|pipe)/.test(a) && !a.startsWith('--user-data-dir'),
  );
  return [
    `--user-data-dir=${profileDir}`,
    '--no-first-run',
    '--window-size=1920,1080',
    '--password-store=basic',
    ...(options.ignoreHTTPSErrors === true ? ['--ignore-certificate-errors'] : []),
    ...extra,
    LOGIN_URL,
  ];
}

/** Where the system Chrome usually lives, per platform (the caller's executablePath wins). */
export function defaultChromeExecutable(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
): string {
  switch (platform) {
    case 'darwin':
      return '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    case 'win32':
      return `${env['PROGRAMFILES'] ?? 'C:\\Program Files'}\\Google\\Chrome\\Application\\chrome.exe`;
    default:
      return 'google-chrome';
  }
}
