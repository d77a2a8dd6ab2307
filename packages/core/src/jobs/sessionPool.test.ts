// SessionPool's warm lease and its hand-off (issue 27), with a fake lease and fake browser sessions:
// an idle warm session gives the profile up as soon as another process wants it; a busy one
// finishes its call first and hands over at check-in. The real lease across processes is tested in
// @gflow/lease (test/handoff.test.ts), the whole journey in tests-e2e (regression/issue-27-…).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FlowSession } from '@gflow/driver';
import type { AcquireProfileLeaseOptions, LeaseActivity, LeaseWanter, ProfileLease } from '@gflow/lease';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ResolvedProfile } from '../home/profiles.js';
import { defineOperation } from '../operations/operation.js';
import { Gflow } from '../runtime/gflow.js';
import { SessionPool } from './sessionPool.js';

let home: string;
let gflow: Gflow;
let events: string[];
let leases: FakeLease[];
let acquired: AcquireProfileLeaseOptions[];

const profile: ResolvedProfile = { name: 'work', dir: '/nonexistent/profile_work', source: 'argument' };
const use = { signal: new AbortController().signal };
const WAITER: LeaseWanter = { pid: 4242, hostname: os.hostname(), since: new Date().toISOString(), surface: 'mcp run' };

/** A lease whose waiters the test controls: want() is another process starting to wait. */
class FakeLease implements ProfileLease {
  readonly profileName = 'work';
  readonly profileDir = '/nonexistent/profile_work';
  readonly lockPath = '/nonexistent/work.lock';
  readonly acquiredAt = new Date();
  readonly activities: LeaseActivity[] = [];
  readonly callbacks = new Set<(wanter: LeaseWanter) => void>();
  waiter: LeaseWanter | undefined;
  #released = false;

  get released(): boolean {
    return this.#released;
  }

  release = (): Promise<void> => {
    if (!this.#released) events.push('lease released');
    this.#released = true;
    this.callbacks.clear();
    return Promise.resolve();
  };

  [Symbol.asyncDispose] = this.release;

  setActivity(activity: LeaseActivity): void {
    this.activities.push(activity);
  }

  onWanted(callback: (wanter: LeaseWanter) => void): () => void {
    this.callbacks.add(callback);
    return () => this.callbacks.delete(callback);
  }

  wanted(): LeaseWanter | undefined {
    return this.#released ? undefined : this.waiter;
  }

  /** Another process starts to wait (what the lease's watch reports). */
  want(wanter: LeaseWanter = WAITER): void {
    this.waiter = wanter;
    for (const callback of [...this.callbacks]) callback(wanter);
  }
}

function fakeSession(): FlowSession {
  let closed = false;
  return {
    get isClosed() {
      return closed;
    },
    close: () => {
      if (!closed) events.push('browser closed');
      closed = true;
      return Promise.resolve();
    },
  } as unknown as FlowSession;
}

/** A pool with the runtime's own dependencies (as Gflow builds it), and fake leases and sessions. */
function poolOptions(runtime: Gflow, keepWarm: boolean) {
  return {
    surface: runtime.surface,
    settings: runtime.settings,
    locksDir: runtime.layout.locksDir,
    logger: runtime.logger,
    queue: runtime.profileQueue,
    keepWarm,
    runningOperation: () => runtime.currentOperation,
  };
}

function pool(keepWarm: boolean): SessionPool {
  return new SessionPool({
    ...poolOptions(gflow, keepWarm),
    acquireLease: (options) => {
      acquired.push(options);
      const lease = new FakeLease();
      leases.push(lease);
      events.push('lease acquired');
      return Promise.resolve(lease);
    },
    openSession: () => Promise.resolve(fakeSession()),
  });
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Waits for a state (never a fixed sleep as the assertion). */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Lets queued microtasks and the profile queue run (for "nothing happened" checks). */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-pool-'));
  gflow = new Gflow({ surface: 'mcp', env: { GFLOW_CLI_HOME: home, GFLOW_CLI_LOG_LEVEL: 'ERROR' }, cwd: home }, []);
  events = [];
  leases = [];
  acquired = [];
});

afterEach(async () => {
  await gflow.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('SessionPool: the warm lease gives way', () => {
  it('keeps an idle session warm, recorded idle, and closes it then frees the lease when another process wants the profile', async () => {
    const sessions = pool(true);
    await sessions.withSession(profile, use, () => Promise.resolve('done'));
    const [lease] = leases;
    if (!lease) throw new Error('no lease');
    expect(sessions.warmCount).toBe(1);
    expect(lease.released).toBe(false);
    expect(lease.activities.at(-1)).toEqual({ state: 'idle' });
    expect(lease.callbacks.size).toBe(1);

    lease.want();
    await until(() => lease.released, 'the idle lease to be released');
    expect(events).toEqual(['lease acquired', 'browser closed', 'lease released']);
    expect(sessions.warmCount).toBe(0);
  });

  it('does nothing while a call runs, and hands over at the end of the call instead of keeping the session warm', async () => {
    const sessions = pool(true);
    const job = deferred();
    const running = sessions.withSession(profile, use, async () => {
      await job.promise;
      return 'generated';
    });
    await until(() => leases.length === 1 && events.length === 1, 'the call to start');
    const lease = leases[0] as FakeLease;
    lease.want();
    await settle();
    expect(events).toEqual(['lease acquired']);
    expect(lease.released).toBe(false);

    job.resolve();
    await expect(running).resolves.toBe('generated');
    expect(events).toEqual(['lease acquired', 'browser closed', 'lease released']);
    expect(sessions.warmCount).toBe(0);
    // It never said idle: the profile went from busy to the waiter.
    expect(lease.activities.some((a) => a.state === 'idle')).toBe(false);
  });

  it('stays warm when the waiter gave up before the call ended, and a warm session is reused by the next call', async () => {
    const sessions = pool(true);
    const job = deferred();
    const running = sessions.withSession(profile, use, () => job.promise);
    await until(() => leases.length === 1, 'the call to start');
    const lease = leases[0] as FakeLease;
    lease.want();
    lease.waiter = undefined;
    job.resolve();
    await running;
    expect(sessions.warmCount).toBe(1);
    expect(lease.released).toBe(false);
    await sessions.withSession(profile, use, () => Promise.resolve());
    expect(leases).toHaveLength(1);
    expect(events).toEqual(['lease acquired']);
  });

  it('runs a call of this process that was already queued before the idle hand-off, which then hands over at its check-in', async () => {
    const sessions = pool(true);
    await sessions.withSession(profile, use, () => Promise.resolve());
    const lease = leases[0] as FakeLease;
    const job = deferred();
    const queued = sessions.withSession(profile, use, () => job.promise);
    await settle();
    lease.want();
    await settle();
    expect(lease.released).toBe(false);
    job.resolve();
    await queued;
    await until(() => lease.released, 'the hand-off after the queued call');
    expect(events).toEqual(['lease acquired', 'browser closed', 'lease released']);
  });

  it('the CLI (not warm) never watches and frees the lease after each call', async () => {
    const sessions = pool(false);
    await sessions.withSession(profile, use, () => {
      expect(leases[0]?.callbacks.size).toBe(0);
      return Promise.resolve();
    });
    expect(events).toEqual(['lease acquired', 'browser closed', 'lease released']);
  });

  it('a call inside a call on the same profile gets the held session: one lease, one browser (a run of many steps)', async () => {
    const sessions = pool(false);
    const seen: unknown[] = [];
    await sessions.withSession(profile, use, async (outer) => {
      for (let step = 0; step < 3; step += 1)
        await sessions.withSession(profile, use, (inner) => {
          seen.push(inner === outer);
          return Promise.resolve();
        });
    });
    expect(seen).toEqual([true, true, true]);
    expect(events).toEqual(['lease acquired', 'browser closed', 'lease released']);
  });

  it('records who holds the profile and what each call is doing, idle in between', async () => {
    const sessions = pool(true);
    await sessions.withSession(profile, use, () => Promise.resolve());
    // A server waits 180 s by default; outside an operation the call is "a browser call".
    expect(acquired[0]).toMatchObject({
      surface: 'mcp run',
      waitSeconds: 180,
      activity: { state: 'busy', doing: 'a browser call' },
    });
    await sessions.withSession(profile, { ...use, activity: 'Generate images (gflow_generate_image)' }, () =>
      Promise.resolve(),
    );
    expect(leases[0]?.activities).toEqual([
      { state: 'idle' },
      { state: 'busy', doing: 'Generate images (gflow_generate_image)' },
      { state: 'idle' },
    ]);
  });

  it('names the running operation of its own runtime in the lease it takes', async () => {
    let sessions: SessionPool | undefined;
    const probe = defineOperation({
      name: 'probeBrowser',
      mcpName: 'gflow_probe_browser',
      title: 'Probe the browser',
      description: 'test',
      kind: 'read',
      usesBrowser: true,
      usesCatalog: false,
      input: z.object({}),
      output: z.string(),
      handler: () => {
        sessions ??= new SessionPool({
          ...poolOptions(runtime, true),
          acquireLease: (options) => (acquired.push(options), Promise.resolve(new FakeLease())),
          openSession: () => Promise.resolve(fakeSession()),
        });
        return sessions.withSession(profile, use, () => Promise.resolve('ok'));
      },
    });
    const runtime = new Gflow({ surface: 'mcp', env: { GFLOW_CLI_HOME: home }, cwd: home }, [probe]);
    expect(runtime.currentOperation).toBeUndefined();
    await runtime.run('probeBrowser', {});
    expect(acquired[0]?.activity).toEqual({ state: 'busy', doing: 'Probe the browser (gflow_probe_browser)' });
    await runtime.close();
  });
});
