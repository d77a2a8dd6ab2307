/**
 * The launch options of a generation context (flow-wire §2 "Generation context launch"):
 * `--enable-automation` is never passed, automation blink features are off, the password store is
 * basic, `navigator.webdriver` is hidden by an init script, Accept-Language is pinned.
 */
export interface LaunchSettings {
  readonly profileDir: string;
  readonly channel?: 'chrome';
  readonly executablePath?: string;
  readonly headless: boolean;
  readonly locale?: string;
  readonly extraArgs?: readonly string[];
  readonly ignoreHTTPSErrors?: boolean;
  readonly proxy?: {
    readonly server: string;
    readonly bypass?: string;
    readonly username?: string;
    readonly password?: string;
  };
  readonly harPath?: string;
}

export interface HostFacts {
  readonly platform: NodeJS.Platform;
  /** Effective uid, or null where there is none (Windows). */
  readonly uid: number | null;
}

export function currentHostFacts(): HostFacts {
  return { platform: process.platform, uid: typeof process.getuid === 'function' ? process.getuid() : null };
}

/** Extra flags a root Linux run needs: the sandbox cannot run as root, and there is no internet for background services. */
export const ROOT_LINUX_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const BASE_ARGS: readonly string[] = [
  '--password-store=basic',
  '--disable-blink-features=AutomationControlled',
  '--disable-dev-shm-usage',
];

export function acceptLanguage(locale: string): string {
  const primary = locale.split('-')[0] ?? locale;
  return primary === locale ? `${locale};q=1.0` : `${locale},${primary};q=0.9`;
}

/** Hides `navigator.webdriver` (a webdriver flag earns low-score reCAPTCHA tokens). */
export const HIDE_WEBDRIVER_SCRIPT = `(() => {
  try {
    Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => undefined, configurable: true });
  } catch (e) {}
})();`;

export interface PersistentLaunchOptions {
  channel?: string;
  executablePath?: string;
  headless: boolean;
  locale: string;
  args: string[];
  ignoreDefaultArgs: string[];
  ignoreHTTPSErrors: boolean;
  extraHTTPHeaders: Record<string, string>;
  viewport: { width: number; height: number };
  acceptDownloads: boolean;
  proxy?: { server: string; bypass?: string; username?: string; password?: string };
  recordHar?: { path: string; content: 'omit' };
  /** gflow owns the process's signals: it cancels jobs, records them and then closes the browser itself. */
  handleSIGINT: false;
  handleSIGTERM: false;
  handleSIGHUP: false;
}

export function buildLaunchOptions(
  settings: LaunchSettings,
  host: HostFacts = currentHostFacts(),
): PersistentLaunchOptions {
  const locale = settings.locale ?? 'en-US';
  const asRootOnLinux = host.platform === 'linux' && host.uid === 0;
  const args = [...BASE_ARGS, ...(asRootOnLinux ? ROOT_LINUX_ARGS : []), ...(settings.extraArgs ?? [])];
  const options: PersistentLaunchOptions = {
    headless: settings.headless,
    locale,
    args: [...new Set(args)],
    ignoreDefaultArgs: asRootOnLinux ? ['--enable-automation'] : ['--enable-automation', '--no-sandbox'],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    ignoreHTTPSErrors: settings.ignoreHTTPSErrors ?? false,
    extraHTTPHeaders: { 'Accept-Language': acceptLanguage(locale) },
    viewport: { width: 1920, height: 1080 },
    acceptDownloads: false,
  };
  if (settings.channel !== undefined) options.channel = settings.channel;
  else if (settings.executablePath !== undefined) options.executablePath = settings.executablePath;
  if (settings.proxy !== undefined) {
    options.proxy = { server: settings.proxy.server };
    if (settings.proxy.bypass !== undefined) options.proxy.bypass = settings.proxy.bypass;
    if (settings.proxy.username !== undefined) options.proxy.username = settings.proxy.username;
    if (settings.proxy.password !== undefined) options.proxy.password = settings.proxy.password;
  }
  if (settings.harPath !== undefined) options.recordHar = { path: settings.harPath, content: 'omit' };
  return options;
}
