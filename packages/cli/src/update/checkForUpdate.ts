export interface UpdateReport {
  readonly status: 'up_to_date' | 'update_available' | 'offline' | 'not_published' | 'disabled' | 'unknown';
  readonly installed: string;
  readonly latest: string | null;
  readonly update_available: boolean;
  readonly installer: 'npm' | 'source';
  readonly command: string;
  /** gflow never upgrades itself: a live `gflow mcp run` would break mid-session. */
  readonly upgraded: false;
  readonly notes: string;
}

export interface CheckOptions {
  readonly installed: string;
  readonly packageName: string;
  readonly registry: string;
  readonly enabled: boolean;
  /** Where the running binary lives (decides npm vs source). */
  readonly scriptPath: string;
  readonly timeoutMs?: number;
  readonly fetchImpl?: typeof fetch;
}

/** How gflow installed from a checkout's tarball (README "Using it") is upgraded. */
export const UPGRADE_FROM_CHECKOUT = 'git pull && npm run pack:app && npm install -g ./dist/gflow.tgz';

/** Compares dotted versions numerically (pre-release tags sort before the release). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.replace(/^v/, '').split('-', 2);
    return { nums: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.nums.length, y.nums.length); i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

/**
 * Asks the npm registry for the latest version (short timeout). Offline or a
 * registry error is a status, not a failure. Never installs anything.
 */
export async function checkForUpdate(options: CheckOptions): Promise<UpdateReport> {
  const installer: UpdateReport['installer'] = /[/\\]node_modules[/\\]/.test(options.scriptPath) ? 'npm' : 'source';
  const command =
    installer === 'npm' ? `npm install -g ${options.packageName}@latest` : 'git pull && npm run bootstrap';
  const stopFirst = 'Stop running gflow mcp run / gflow serve processes first, then run the command yourself.';
  const base = { installed: options.installed, installer, command, upgraded: false as const };
  if (!options.enabled)
    return {
      ...base,
      status: 'disabled',
      latest: null,
      update_available: false,
      notes: 'GFLOW_CLI_UPDATE_CHECK is off; no request was made.',
    };
  const url = `${options.registry.replace(/\/+$/, '')}/${options.packageName.replace('/', '%2F')}/latest`;
  let latest: string;
  try {
    const response = await (options.fetchImpl ?? fetch)(url, {
      signal: AbortSignal.timeout(options.timeoutMs ?? 3000),
      headers: { accept: 'application/json' },
    });
    if (response.status === 404) {
      // npm's answer for a package it does not have: nothing to compare with, not a failure.
      return {
        ...base,
        status: 'not_published',
        latest: null,
        update_available: false,
        command: installer === 'npm' ? UPGRADE_FROM_CHECKOUT : base.command,
        notes: `${options.packageName} is not published on ${options.registry}, so there is no newer release to compare with. gflow is installed from a checkout: upgrade there (${installer === 'npm' ? UPGRADE_FROM_CHECKOUT : base.command}).`,
      };
    }
    if (!response.ok) {
      return {
        ...base,
        status: 'unknown',
        latest: null,
        update_available: false,
        notes: `The registry answered HTTP ${response.status} for ${options.packageName}.`,
      };
    }
    const body = (await response.json()) as { version?: unknown };
    if (typeof body.version !== 'string')
      return {
        ...base,
        status: 'unknown',
        latest: null,
        update_available: false,
        notes: 'The registry reply had no version.',
      };
    latest = body.version;
  } catch {
    return {
      ...base,
      status: 'offline',
      latest: null,
      update_available: false,
      notes: `Could not reach ${options.registry}; check again when online.`,
    };
  }
  const newer = compareVersions(latest, options.installed) > 0;
  return {
    ...base,
    status: newer ? 'update_available' : 'up_to_date',
    latest,
    update_available: newer,
    notes: newer ? `gflow does not upgrade itself. ${stopFirst}` : 'You have the latest version.',
  };
}
