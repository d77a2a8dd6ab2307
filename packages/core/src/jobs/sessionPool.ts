import { AsyncLocalStorage } from 'node:async_hooks';
import type { AcquireProfileLeaseOptions, LeaseHolder, ProfileLease } from '@gflow/lease';
import type { KeyedQueue } from '@gflow/lease/limits';
import { BrowserEngineUnavailableError } from '@gflow/errors';
import type { FlowSession } from '@gflow/driver';
import type { ResolvedProfile } from '../home/profiles.js';
import type { Logger } from '../runtime/logger.js';
import type { BrowserSessions, SessionUse } from '../runtime/runtimeServices.js';
import { SURFACE_POLICY, type Surface } from '../runtime/surfacePolicy.js';
import { type ResolvedSettings, leaseWaitSecondsFor } from '../settings/loadSettings.js';
import { type BrowserOverrides, browserStrategyOf, findBrowserExecutable } from './browserLaunch.js';

interface WarmEntry {
  readonly lease: ProfileLease;
  readonly session: FlowSession;
  idleTimer?: NodeJS.Timeout;
  /** True while a call uses the session: a hand-off waits for the call to end. */
  busy: boolean;
  /** Stops watching for other processes that want the profile. */
  stopWatching?: () => void;
}

/** Everything the pool uses, given explicitly by whoever builds it (the runtime; tests). */
export interface SessionPoolOptions {
  /** The surface: its policy gives the default lease wait and how the holder is named. */
  readonly surface: Surface;
  readonly settings: ResolvedSettings;
  /** Where the cross-process leases live (`<home>/locks`). */
  readonly locksDir: string;
  readonly logger: Logger;
  /** Launch additions (the sandbox's host mapping, proxy, headless). */
  readonly browser?: BrowserOverrides;
  /** The per-profile FIFO of this process: calls on one profile run one at a time. */
  readonly queue: KeyedQueue;
  /** Keep sessions warm between calls (daemons), released after an idle period or handed over. */
  readonly keepWarm: boolean;
  /** The lease wait and holder name when not the surface's (a background worker waits like a server and says "worker"). */
  readonly leaseWait?: 'cli' | 'server';
  readonly leaseHolder?: string;
  /** The operation running in the caller's async context, named in the lease ("Generate images (gflow_generate_image)"). */
  readonly runningOperation?: () => { readonly title: string; readonly mcpName: string } | undefined;
  /**
   * The task a lease holder runs on the profile, when the queue knows (the runtime reads the
   * working rows the holder's pid claimed): a waiter's line names it ("queued behind task X").
   */
  readonly holderTask?: (profileName: string, holder: LeaseHolder) => Promise<string | undefined> | string | undefined;
  /** Takes the profile's cross-process lease; default @gflow/lease's acquireProfileLease (loaded lazily). Tests pass fakes. */
  readonly acquireLease?: (options: AcquireProfileLeaseOptions) => Promise<ProfileLease>;
  /** Opens the browser session on a profile; default the driver's openFlowSession with these settings. Tests pass fakes. */
  readonly openSession?: (profile: ResolvedProfile) => Promise<FlowSession>;
}

/**
 * Browser sessions per profile. Calls on one profile run one at a time in
 * arrival order (the runtime's keyed queue); the cross-process lease is held
 * while a session is open. A CLI run closes its browser and frees the lease at
 * once; a daemon keeps the session warm and releases both after an idle period.
 *
 * The warm lease gives way (issue 27): a warm session would otherwise keep the
 * profile for the whole idle time (300 s by default), longer than another
 * process waits for it (180 s). So a daemon watches its lease for a waiter's
 * "wanted" mark (ProfileLease.onWanted, a cheap poll inside @gflow/lease):
 * - idle when a waiter arrives: the session is closed and the lease released
 *   at once, the same path as the idle timer, queued in the profile's lane so
 *   it never cuts into a call of this process;
 * - busy: nothing happens during the call; its check-in looks for a waiter
 *   again and hands the profile over right after the call instead of keeping
 *   it warm. A waiting process gets the profile within about a second of the
 *   job's end, and a job queued behind it in this process waits its turn
 *   (the lease lets an earlier waiter go first).
 * A shorter idle timer would not do: it would cost every single-client user
 * a browser start per call and still make the other process wait.
 */
export class SessionPool implements BrowserSessions {
  readonly #options: SessionPoolOptions;
  readonly #queue: KeyedQueue;
  readonly #logger: Logger;
  readonly #warm = new Map<string, WarmEntry>();
  readonly #keepWarm: boolean;
  /** The sessions the current async context already holds, by profile (a call inside a call). */
  readonly #held = new AsyncLocalStorage<ReadonlyMap<string, WarmEntry>>();

  /** The owner closes the pool ({@link closeAll}) when it closes. */
  constructor(options: SessionPoolOptions) {
    this.#options = options;
    this.#queue = options.queue;
    this.#logger = options.logger;
    this.#keepWarm = options.keepWarm;
  }

  /**
   * Runs `fn` with the profile's session. A call made inside another call's `fn` on the same
   * profile (a run's steps inside the run, a chain's frame inside the chain) is given that call's
   * session as it is — no queue, no lease, no second browser — so a run of many steps keeps one
   * browser and holds the profile from its first step to its last.
   */
  async withSession<T>(
    profile: ResolvedProfile,
    use: SessionUse,
    fn: (session: FlowSession) => Promise<T>,
  ): Promise<T> {
    const held = this.#held.getStore()?.get(profile.name);
    if (held !== undefined && !held.session.isClosed) return fn(held.session);
    use.onProgress?.({ phase: 'queued' });
    return this.#queue.run(
      profile.name,
      async () => {
        const entry = await this.#checkout(profile, use);
        const holding = new Map(this.#held.getStore() ?? []).set(profile.name, entry);
        try {
          return await this.#held.run(holding, () => fn(entry.session));
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
  async withProfileExclusive<T>(
    profile: { name: string; dir: string },
    use: SessionUse,
    fn: () => Promise<T>,
  ): Promise<T> {
    return this.#queue.run(
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

  /** What a call is doing, as the lease records it: "Generate images (gflow_generate_image)". */
  #doing(use: SessionUse): string {
    if (use.activity) return use.activity;
    const operation = this.#options.runningOperation?.();
    return operation ? `${operation.title} (${operation.mcpName})` : 'a browser call';
  }

  /**
   * The cross-process lease: CLI and library fail fast (0 s), servers wait
   * (180 s) unless configured. Either way an idle warm server holding the
   * profile is waited for, for a few seconds, while it hands the profile over
   * (the lease's idle hand-off grace): a CLI run next to an idle `mcp run`
   * succeeds, a CLI run next to a busy one is refused at once as before.
   */
  async #acquire(profile: { name: string; dir: string }, use: SessionUse): Promise<ProfileLease> {
    const policy = SURFACE_POLICY[this.#options.surface];
    // The lease holds its lock in SQLite; loaded when a browser is first needed, with the driver.
    const acquire = this.#options.acquireLease ?? (await import('@gflow/lease')).acquireProfileLease;
    const waitSeconds = leaseWaitSecondsFor(this.#options.settings, this.#options.leaseWait ?? policy.leaseWait);
    return acquire({
      locksDir: this.#options.locksDir,
      profileDir: profile.dir,
      profileName: profile.name,
      waitSeconds,
      signal: use.signal,
      surface: this.#options.leaseHolder ?? policy.leaseHolder,
      activity: { state: 'busy', doing: this.#doing(use) },
      onWait: (holder) => this.#onWait(profile.name, waitSeconds, holder, use),
    });
  }

  /** Each time the line moves: the waiter's progress line and a log line name what it waits behind. */
  #onWait(profileName: string, waitSeconds: number, holder: LeaseHolder | undefined, use: SessionUse): void {
    // Naming the task is a courtesy: a failed read says the wait without it.
    void Promise.resolve()
      .then(() => (holder ? this.#options.holderTask?.(profileName, holder) : undefined))
      .catch(() => undefined)
      .then((taskId) => this.#sayWait(profileName, waitSeconds, holder, use, taskId));
  }

  #sayWait(
    profileName: string,
    waitSeconds: number,
    holder: LeaseHolder | undefined,
    use: SessionUse,
    taskId: string | undefined,
  ): void {
    const message = waitingMessage({ profileName, waitSeconds, holder, taskId });
    use.onProgress?.({ phase: 'waiting-for-profile', message });
    this.#logger.info(message, { profile: profileName, ...(taskId ? { behind_task_id: taskId } : {}) });
  }

  async #checkout(profile: ResolvedProfile, use: SessionUse): Promise<WarmEntry> {
    const warm = this.#warm.get(profile.name);
    if (warm) {
      clearTimeout(warm.idleTimer);
      if (!warm.session.isClosed) {
        warm.busy = true;
        warm.lease.setActivity({ state: 'busy', doing: this.#doing(use) });
        return warm;
      }
      this.#warm.delete(profile.name);
      await this.#close(warm);
    }
    const lease = await this.#acquire(profile, use);
    try {
      use.onProgress?.({ phase: 'starting-browser' });
      const session = await (this.#options.openSession ?? ((p: ResolvedProfile) => this.#openSession(p)))(profile);
      const entry: WarmEntry = { lease, session, busy: true };
      if (this.#keepWarm) entry.stopWatching = lease.onWanted(() => this.#onWanted(profile.name, entry));
      return entry;
    } catch (error) {
      await lease.release();
      throw error;
    }
  }

  async #openSession(profile: ResolvedProfile): Promise<FlowSession> {
    const settings = this.#options.settings;
    const channel = browserStrategyOf(profile.dir) === 'chrome' ? 'chrome' : undefined;
    const executablePath = channel ? undefined : findBrowserExecutable(settings);
    if (!channel && !executablePath) {
      throw new BrowserEngineUnavailableError('No Chrome or Chromium was found.', {
        remediationHint:
          'Install Google Chrome or Chromium (Debian: apt-get install chromium), or set GFLOW_CLI_BROWSER_EXECUTABLE.',
      });
    }
    const { openFlowSession } = await import('@gflow/driver');
    const overrides = this.#options.browser ?? {};
    const proxy = settings.browserProxy ?? overrides.proxy;
    return openFlowSession({
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
      logger: this.#logger,
      incidentCapture: settings.incidentCapture,
    });
  }

  /**
   * After a call: a daemon keeps the session warm (idle timer) unless another
   * process waits for the profile, in which case it is handed over now.
   */
  async #checkin(name: string, entry: WarmEntry): Promise<void> {
    entry.busy = false;
    if (this.#keepWarm && !entry.session.isClosed) {
      const wanter = entry.lease.wanted();
      if (wanter === undefined) {
        entry.lease.setActivity({ state: 'idle' });
        entry.idleTimer = setTimeout(() => void this.#evict(name), this.#options.settings.sessionIdleSeconds * 1000);
        entry.idleTimer.unref();
        this.#warm.set(name, entry);
        return;
      }
      this.#logger.info('profile handed over after the call', { profile: name, to_pid: wanter.pid });
    }
    if (this.#warm.get(name) === entry) this.#warm.delete(name);
    await this.#close(entry);
  }

  /**
   * The lease saw another process start to wait. Busy: nothing now (the
   * check-in looks again). Idle: close and release, in the profile's lane so a
   * call of this process that is already queued goes first (its check-in then
   * hands over), and only if the waiter is still there.
   */
  #onWanted(name: string, entry: WarmEntry): void {
    if (entry.busy || this.#warm.get(name) !== entry) return;
    void this.#queue
      .run(name, async () => {
        if (entry.busy || this.#warm.get(name) !== entry) return;
        const wanter = entry.lease.wanted();
        if (wanter === undefined) return;
        this.#logger.info('idle profile handed over', { profile: name, to_pid: wanter.pid });
        await this.#dropWarm(name);
      })
      .catch(() => undefined);
  }

  async #evict(name: string): Promise<void> {
    await this.#queue.run(name, () => this.#dropWarm(name));
  }

  /** Closes a profile's warm browser and frees its lease (no-op when none is warm). */
  async #dropWarm(name: string): Promise<void> {
    const entry = this.#warm.get(name);
    if (!entry) return;
    this.#warm.delete(name);
    await this.#close(entry);
  }

  /**
   * Closes the browser first (Chromium must let go of the profile dir), then
   * frees the lease. The watch stops last: until the release the record keeps
   * saying "idle, hands off", which a fail-fast CLI waiting for the hand-off
   * relies on while the browser closes.
   */
  async #close(entry: WarmEntry): Promise<void> {
    clearTimeout(entry.idleTimer);
    await entry.session.close().catch(() => undefined);
    await entry.lease.release();
    entry.stopWatching?.();
  }

  /** Number of warm sessions (for tests and `doctor`). */
  get warmCount(): number {
    return this.#warm.size;
  }

  async closeAll(): Promise<void> {
    const entries = [...this.#warm.values()];
    this.#warm.clear();
    for (const entry of entries) await this.#close(entry);
  }
}

/**
 * The line of a call waiting for the profile, from what the holder recorded and the task it runs:
 * "Queued behind task 6f1c… (profile "work"; gflow CLI, pid 4242, Generate videos …), waiting up to 600 s."
 */
export function waitingMessage(options: {
  readonly profileName: string;
  readonly waitSeconds: number;
  readonly holder: LeaseHolder | undefined;
  readonly taskId?: string | undefined;
}): string {
  const { holder, taskId } = options;
  const bound = `waiting up to ${options.waitSeconds} s`;
  const profile = `profile "${options.profileName}"`;
  if (holder === undefined) return `Queued behind another gflow process on ${profile}, ${bound}.`;
  const who = `${holder.surface ? `gflow ${holder.surface}, ` : ''}pid ${holder.pid}`;
  if (holder.activity === 'idle' && holder.handsOff)
    return `An idle gflow process (${who}) holds ${profile}; it is handing it over (${bound}).`;
  const doing = holder.activity === 'busy' && holder.doing ? `, ${holder.doing}` : '';
  if (taskId) return `Queued behind task ${taskId} (${profile}; ${who}${doing}), ${bound}.`;
  return `Queued behind ${who} on ${profile}${doing ? ` (${doing.slice(2)})` : ''}, ${bound}.`;
}
