import type { ProfileLease } from '@gflow/lease';
import { BrowserEngineUnavailableError } from '@gflow/errors';
import type { FlowSession } from '@gflow/driver';
import type { Gflow } from '../runtime/gflow.js';
import type { ResolvedProfile } from '../home/profiles.js';
import type { ProgressEvent } from '../operations/operation.js';
import { leaseWaitSecondsFor } from '../settings/loadSettings.js';
import { browserStrategyOf, findBrowserExecutable } from './browserLaunch.js';

interface WarmEntry {
  readonly lease: ProfileLease;
  readonly session: FlowSession;
  idleTimer?: NodeJS.Timeout;
}

export interface SessionUse {
  readonly signal: AbortSignal;
  readonly onProgress?: ((event: ProgressEvent) => void) | undefined;
}

/**
 * Browser sessions per profile. Calls on one profile run one at a time in
 * arrival order (the runtime's keyed queue); the cross-process lease is held
 * while a session is open. A CLI run closes its browser and frees the lease at
 * once; a daemon keeps the session warm and releases both after an idle period.
 */
export class SessionPool {
  readonly #gflow: Gflow;
  readonly #warm = new Map<string, WarmEntry>();
  readonly #keepWarm: boolean;

  constructor(gflow: Gflow, keepWarm: boolean) {
    this.#gflow = gflow;
    this.#keepWarm = keepWarm;
    gflow.onClose(() => this.closeAll());
  }

  async withSession<T>(profile: ResolvedProfile, use: SessionUse, fn: (session: FlowSession) => Promise<T>): Promise<T> {
    use.onProgress?.({ phase: 'queued' });
    return this.#gflow.profileQueue.run(
      profile.name,
      async () => {
        const entry = await this.#checkout(profile, use);
        try {
          return await fn(entry.session);
        } finally {
          await this.#checkin(profile.name, entry);
        }
      },
      { signal: use.signal },
    );
  }

  /**
   * Runs `fn` holding the profile's lease but no gflow browser (a sign-in
   * window or a headless probe opens the profile itself). A warm session on
   * the profile is closed first: Chromium opens a profile once at a time.
   */
  async withProfileExclusive<T>(profile: { name: string; dir: string }, use: SessionUse, fn: () => Promise<T>): Promise<T> {
    return this.#gflow.profileQueue.run(
      profile.name,
      async () => {
        await this.#dropWarm(profile.name);
        const lease = await this.#acquire(profile, use);
        try {
          return await fn();
        } finally {
          await lease.release();
        }
      },
      { signal: use.signal },
    );
  }

  /** The cross-process lease: CLI and library fail fast (0 s), servers wait (180 s) unless configured. */
  async #acquire(profile: { name: string; dir: string }, use: SessionUse): Promise<ProfileLease> {
    const surface = this.#gflow.surface;
    // The lease holds its lock in SQLite; loaded when a browser is first needed, with the driver.
    const { acquireProfileLease } = await import('@gflow/lease');
    return acquireProfileLease({
      locksDir: this.#gflow.layout.locksDir,
      profileDir: profile.dir,
      profileName: profile.name,
      waitSeconds: leaseWaitSecondsFor(this.#gflow.settings, surface === 'cli' || surface === 'library' ? 'cli' : 'server'),
      signal: use.signal,
      onWait: () => use.onProgress?.({ phase: 'waiting-for-profile', message: 'Another gflow process is using this profile; waiting.' }),
    });
  }

  async #checkout(profile: ResolvedProfile, use: SessionUse): Promise<WarmEntry> {
    const warm = this.#warm.get(profile.name);
    if (warm) {
      clearTimeout(warm.idleTimer);
      if (!warm.session.isClosed) return warm;
      this.#warm.delete(profile.name);
      await warm.lease.release();
    }
    const settings = this.#gflow.settings;
    const lease = await this.#acquire(profile, use);
    try {
      use.onProgress?.({ phase: 'starting-browser' });
      const channel = browserStrategyOf(profile.dir) === 'chrome' ? 'chrome' : undefined;
      const executablePath = channel ? undefined : findBrowserExecutable(settings);
      if (!channel && !executablePath) {
        throw new BrowserEngineUnavailableError('No Chrome or Chromium was found.', {
          remediationHint: 'Install Google Chrome or Chromium (Debian: apt-get install chromium), or set GFLOW_CLI_BROWSER_EXECUTABLE.',
        });
      }
      const { openFlowSession } = await import('@gflow/driver');
      const overrides = this.#gflow.browserOverrides;
      const proxy = settings.browserProxy ?? overrides.proxy;
      const session = await openFlowSession({
        profileDir: profile.dir,
        ...(channel ? { channel } : {}),
        ...(executablePath ? { executablePath } : {}),
        headless: overrides.headless ?? settings.headless,
        locale: settings.locale,
        extraArgs: [...settings.browserArgs, ...(overrides.extraArgs ?? [])],
        ignoreHTTPSErrors: overrides.ignoreHTTPSErrors ?? false,
        flowHost: settings.flowHost,
        ...(proxy ? { proxy: { server: proxy } } : {}),
        ...(settings.harPath ? { harPath: settings.harPath } : {}),
        logger: this.#gflow.logger,
        incidentCapture: settings.incidentCapture,
      });
      return { lease, session };
    } catch (error) {
      await lease.release();
      throw error;
    }
  }

  async #checkin(name: string, entry: WarmEntry): Promise<void> {
    if (this.#keepWarm && !entry.session.isClosed) {
      entry.idleTimer = setTimeout(() => void this.#evict(name), this.#gflow.settings.sessionIdleSeconds * 1000);
      entry.idleTimer.unref();
      this.#warm.set(name, entry);
      return;
    }
    this.#warm.delete(name);
    await entry.session.close().catch(() => undefined);
    await entry.lease.release();
  }

  async #evict(name: string): Promise<void> {
    await this.#gflow.profileQueue.run(name, () => this.#dropWarm(name));
  }

  /** Closes a profile's warm browser and frees its lease (no-op when none is warm). */
  async #dropWarm(name: string): Promise<void> {
    const entry = this.#warm.get(name);
    if (!entry) return;
    this.#warm.delete(name);
    clearTimeout(entry.idleTimer);
    await entry.session.close().catch(() => undefined);
    await entry.lease.release();
  }

  /** Number of warm sessions (for tests and `doctor`). */
  get warmCount(): number {
    return this.#warm.size;
  }

  async closeAll(): Promise<void> {
    const entries = [...this.#warm.entries()];
    this.#warm.clear();
    for (const [, entry] of entries) {
      clearTimeout(entry.idleTimer);
      await entry.session.close().catch(() => undefined);
      await entry.lease.release();
    }
  }
}
