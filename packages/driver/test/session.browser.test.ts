import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { isRetryable } from '@gflow/errors';
import { useFullBrowser } from '@gflow/testkit/browser';
import { useRig } from './helpers/simSession.js';
import { type DriverProgressEvent, openFlowSession } from '../src/index.js';

// A second session on a profile in use is refused by the browser's own profile lock, which the
// headless shell does not take: this file runs the full browser.
useFullBrowser();
const rig = useRig('driver-session');
const email = 'session@example.com';
let projectId: string;

const SUBMITS = ['ogiZ0b', 'YhhmEf', 'eb1hJf', 'nprQif', 'MZZa6b'];
const submitCount = (): number => SUBMITS.reduce((n, id) => n + rig.sim.received.calls(id).length, 0);
const image = { prompt: 'a paper boat', model: 'nano2', aspect: '16:9', count: 1 } as const;

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 5000, consentBar: 'reject', promoDialog: true });
  projectId = rig.sim.scenario.createProject(email).id;
  await rig.signIn(email);
}, 60_000);

/** The browser's main process for this profile (started by this test file), by its command line. */
function browserPid(profileDir: string): number {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  const line = out.split('\n').find((l) => l.includes(`--user-data-dir=${profileDir}`) && !l.includes('--type='));
  if (line === undefined) throw new Error('browser process not found');
  return Number(line.trim().split(/\s+/)[0]);
}

describe('sessions, UI arms and landings', () => {
  it('dismisses the consent bar and promo dialog, and reuses one warm session for several runs', async () => {
    const a = await rig.session.generateImage({ ...image, projectId });
    const b = await rig.session.generateImage({ ...image, projectId, aspect: '9:16' });
    expect(a.items[0]?.mediaId).not.toBe(b.items[0]?.mediaId);
    expect((b.items[0]?.height ?? 0) > (b.items[0]?.width ?? 0)).toBe(true);
  });

  it('a second session on the same profile is refused while the first holds it', async () => {
    const error = await openFlowSession({
      profileDir: rig.profileDir,
      executablePath: rig.kit.executablePath,
      headless: true,
      extraArgs: ['--no-sandbox'],
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ProfileLockedError', exitCode: 11 });
    expect(rig.session.isClosed).toBe(false);
  });

  it('creates a project through the gallery when none is given', async () => {
    const before = rig.sim.scenario.projectsOf(email).length;
    const result = await rig.session.generateImage({ ...image });
    expect(rig.sim.scenario.projectsOf(email).map((p) => p.id)).toContain(result.projectId);
    expect(rig.sim.scenario.projectsOf(email).length).toBe(before + 1);
  });

  it('switches agent mode off and generates on the classic composer', async () => {
    rig.sim.scenario.setCohort(email, 'agent_mode');
    try {
      const result = await rig.session.generateImage({ ...image, projectId });
      expect(result.items).toHaveLength(1);
      expect(rig.logs.some((l) => l.includes('agent mode is on'))).toBe(true);
    } finally {
      rig.sim.scenario.setCohort(email, 'classic');
    }
  });

  it('a project of another account → /404?reason=project → ConfigurationError (11)', async () => {
    rig.sim.scenario.createAccount({ email: 'other@example.com' });
    const foreign = rig.sim.scenario.createProject('other@example.com').id;
    await expect(rig.session.generateImage({ ...image, projectId: foreign })).rejects.toMatchObject({ exitCode: 11 });
  });

  it('no Flow access → /unavailable → FlowAccessUnavailableError (39)', async () => {
    rig.sim.scenario.setFlowAccess(email, false);
    try {
      await expect(rig.session.generateImage({ ...image, projectId })).rejects.toMatchObject({ exitCode: 39 });
    } finally {
      rig.sim.scenario.setFlowAccess(email, true);
    }
  });

  it('cancellation mid-generation → CancelledError (130) with may_have_spent, and the page stays usable', async () => {
    const controller = new AbortController();
    const onProgress = (e: DriverProgressEvent): void => {
      if (e.phase === 'submitted') controller.abort();
    };
    const error = await rig.session
      .generateVideo({
        mode: 't2v',
        projectId,
        prompt: 'slow clouds',
        model: 'veo_3_1_lite',
        aspect: '16:9',
        count: 1,
        timeoutMs: 120_000,
        signal: controller.signal,
        onProgress,
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 130 });
    expect((error as { extensions: Record<string, unknown> }).extensions['may_have_spent']).toBe(true);
    const next = await rig.session.generateImage({ ...image, projectId });
    expect(next.items).toHaveLength(1);
  });

  it('cancellation before anything runs → CancelledError without spend', async () => {
    const controller = new AbortController();
    controller.abort();
    const before = submitCount();
    const error = await rig.session
      .generateImage({ ...image, projectId, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 130 });
    expect(submitCount()).toBe(before);
  });

  it('a signed-out profile lands on /about → AuthExpiredError (3), told apart from an identity re-check (31)', async () => {
    rig.sim.scenario.signOut(email);
    try {
      const error = await rig.session.generateImage({ ...image, projectId }).catch((e: unknown) => e);
      expect(error).toMatchObject({ exitCode: 3 });
      expect((error as Error).message).toMatch(/signed out/);
      expect(isRetryable(error)).toBe(false);
    } finally {
      await rig.signIn(email);
    }
    rig.sim.scenario.setFailure(email, 'identity_recheck', { times: 1 });
    const recheck = await rig.session.generateImage({ ...image, projectId }).catch((e: unknown) => e);
    expect(recheck).toMatchObject({ exitCode: 31 });
    expect(isRetryable(recheck)).toBe(false);
    rig.sim.scenario.clearFailures(email);
  });

  it('the browser killed mid-run → BrowserSessionClosedError (15); the session reports closed', async () => {
    let closedReason: string | null = null;
    rig.session.onClosed((reason) => (closedReason = reason));
    const pid = browserPid(rig.profileDir);
    const onProgress = (e: DriverProgressEvent): void => {
      if (e.phase === 'submitted') process.kill(pid, 'SIGKILL');
    };
    const error = await rig.session
      .generateVideo({
        mode: 't2v',
        projectId,
        prompt: 'a long drive',
        model: 'veo_3_1_lite',
        aspect: '16:9',
        count: 1,
        timeoutMs: 120_000,
        onProgress,
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 15 });
    expect((error as { extensions: Record<string, unknown> }).extensions['may_have_spent']).toBe(true);
    await expect.poll(() => rig.session.isClosed).toBe(true);
    expect(closedReason).not.toBeNull();
    await expect(rig.session.generateImage({ ...image, projectId })).rejects.toMatchObject({ exitCode: 15 });
  });
});
