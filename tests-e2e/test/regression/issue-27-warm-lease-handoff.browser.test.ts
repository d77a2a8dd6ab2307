// Issue 27, item 1: a finished server must not keep the profile for the warm-browser idle time
// (300 s) while another process waits for it (180 s). Two real `gflow mcp run --sandbox` stdio
// servers on one home and profile, default settings (no lease-wait or idle overrides), real
// Chromium against the simulator: the idle holder gives the profile up through the lease's
// wanted mark, a busy one finishes its job first, and a fail-fast CLI next to an idle server still
// succeeds. Times are read from the simulator's received log (`at`, ms since it started) and
// reported (the issue's target is 2 s from the end of server 1's job); what is asserted is the
// state: server 1 says it handed the profile over, and server 2's call completes inside its tool
// timeout (150 s), which it could not before the fix (a 409 after its 180 s lease wait).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { json, waitFor } from '@gflow/testkit';
import type { McpConnection } from '@gflow/testkit/mcp';
import { useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'issue-27', signIn: true });
let one: McpConnection | undefined;
let two: McpConnection | undefined;
/** Wall-clock time at which this process saw each submit arrive (the simulator runs in-process). */
let seenAt: number[] = [];
let watcher: NodeJS.Timeout | undefined;

beforeAll(async () => {
  const env = e2e.env();
  // The condition: the defaults (servers wait 180 s, warm sessions idle 300 s).
  expect(env['GFLOW_CLI_LEASE_WAIT_SECONDS']).toBeUndefined();
  expect(env['GFLOW_CLI_SESSION_IDLE_SECONDS']).toBeUndefined();
  // INFO: the servers say when they hand the profile over.
  const logged = { env: { GFLOW_CLI_LOG_LEVEL: 'INFO' } };
  [one, two] = await Promise.all([e2e.mcpStdio(['--sandbox'], logged), e2e.mcpStdio(['--sandbox'], logged)]);
  watcher = setInterval(() => {
    const count = e2e.sim.received.submits().length;
    while (seenAt.length < count) seenAt.push(Date.now());
  }, 2);
}, 120_000);

afterEach(() => {
  e2e.sim.scenario.setLatency('fast');
});

afterAll(async () => {
  if (watcher) clearInterval(watcher);
  await Promise.allSettled([one?.close(), two?.close()]);
});

function resetLog(): void {
  e2e.sim.received.clear();
  seenAt = [];
}

/**
 * The simulator's clock (`at`) in this process's Date.now(): its start time is at most the
 * smallest (seen − at) over the submits seen (each is seen within a few ms of its arrival).
 */
function wallOf(at: number): number {
  const submits = e2e.sim.received.submits();
  const start = Math.min(...submits.map((s, i) => (seenAt[i] ?? Number.POSITIVE_INFINITY) - s.at));
  return start + at;
}

interface Progress {
  readonly at: number;
  readonly message: string;
}

/** A tool call with a progress token, recording each notification's arrival time. */
async function generate(
  conn: McpConnection,
  prompt: string,
  progress: Progress[] = [],
): Promise<{ structured: Record<string, unknown>; isError: boolean; endedAt: number }> {
  const result = (await conn.client.callTool(
    { name: 'gflow_generate_image', arguments: { prompt, aspect: '1:1' } },
    {
      timeout: 150_000,
      onprogress: (p: { message?: string | undefined }) => progress.push({ at: Date.now(), message: p.message ?? '' }),
    },
  )) as { isError?: boolean; structuredContent?: Record<string, unknown> };
  return { structured: result.structuredContent ?? {}, isError: result.isError === true, endedAt: Date.now() };
}

/** When the first progress notification of a phase arrived. */
function startOf(progress: readonly Progress[], phase: string): number {
  const found = progress.find((p) => p.message.startsWith(phase));
  if (!found) throw new Error(`no "${phase}" progress in ${JSON.stringify(progress.map((p) => p.message))}`);
  return found.at;
}

/** The holder record beside the sandbox profile's lock (diagnostic JSON the holder keeps). */
function holderRecord(): Record<string, unknown> | undefined {
  const locks = path.join(e2e.sandboxHome, 'locks');
  const file = fs.readdirSync(locks).find((name) => name.endsWith('.holder.json'));
  const text = file ? fs.readFileSync(path.join(locks, file), 'utf8').trim() : '';
  return text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
}

/** The phase a progress message starts with ("waiting-for-profile: …" → "waiting-for-profile"). */
const phaseOf = (message: string): string => message.split(':')[0] ?? '';

/** Whether `server` logged `event` naming another process as the one it handed the profile to. */
function handedOver(server: McpConnection, event: string): boolean {
  return server
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .some((entry) => entry['event'] === event && typeof entry['to_pid'] === 'number' && entry['to_pid'] !== 0);
}

describe('issue 27: a finished server hands the profile over', () => {
  it('two stdio servers on one profile: server 2 starts its generation right after server 1 ends, not 300 s later', async () => {
    if (!one || !two) throw new Error('servers not started');
    resetLog();
    const firstProgress: Progress[] = [];
    const first = await generate(one, 'server one', firstProgress);
    expect(first.isError, JSON.stringify(first.structured)).toBe(false);
    expect(first.structured).toMatchObject({ status: 'completed' });
    // Server 1 keeps its browser warm, idle, and says that it hands the profile over.
    expect(holderRecord()).toMatchObject({ surface: 'mcp run', activity: 'idle', hands_off: true });

    const progress: Progress[] = [];
    const second = await generate(two, 'server two', progress);
    expect(second.isError, JSON.stringify(second.structured)).toBe(false);
    expect(second.structured).toMatchObject({ status: 'completed' });

    const submits = e2e.sim.received.submits();
    expect(submits.map((s) => s.rpcId)).toEqual(['ogiZ0b', 'ogiZ0b']);
    const handOff = startOf(progress, 'starting-browser') - first.endedAt;
    const toSubmit = wallOf(submits[1]!.at) - first.endedAt;
    // What any first call costs without a holder in the way: a browser start, Flow, a project.
    const coldStart = wallOf(submits[0]!.at) - startOf(firstProgress, 'starting-browser');
    console.log(
      `idle hand-off: server 2 held the profile ${handOff} ms after server 1's result and submitted after ${Math.round(toSubmit)} ms ` +
        `(a cold start to the submit takes ${Math.round(coldStart)} ms; simulator: submits ${Math.round(submits[1]!.at - submits[0]!.at)} ms apart)`,
    );
    const waited = progress.find((p) => p.message.startsWith('waiting-for-profile'));
    expect(waited?.message).toMatch(
      /^waiting-for-profile: An idle gflow process \(gflow mcp run, pid \d+\) holds profile "sandbox"; it is handing it over \(waiting up to 180 s\)\.$/,
    );
    // The profile changed hands through the wanted mark, far inside the 300 s idle time: server 1
    // gave it up because server 2 asked (before the fix server 2 failed 409 after its 180 s wait).
    expect(handedOver(one, 'idle profile handed over'), one.stderr()).toBe(true);
    expect(progress.map((p) => phaseOf(p.message))).toEqual(
      expect.arrayContaining(['waiting-for-profile', 'starting-browser']),
    );
    // Server 2 keeps it warm now; server 1 holds nothing.
    expect(holderRecord()).toMatchObject({ surface: 'mcp run', activity: 'idle', hands_off: true });
  }, 150_000);

  it('a busy server finishes its job first; the waiting server starts within seconds of its end', async () => {
    if (!one || !two) throw new Error('servers not started');
    resetLog();
    // An image takes about 5 s in Flow now: long enough for server 2 to arrive while server 1 works.
    e2e.sim.scenario.setLatency(0.25);
    const running = generate(one, 'server one, slowly');
    await waitFor('server 1 to submit', () => e2e.sim.received.submits().length === 1, 60_000, 20);
    expect(holderRecord()).toMatchObject({
      surface: 'mcp run',
      activity: 'busy',
      doing: 'Generate images (gflow_generate_image)',
    });

    const progress: Progress[] = [];
    const waiting = generate(two, 'server two, after it', progress);
    const waitMessage = await waitFor(
      'server 2 to wait for the profile',
      () => progress.find((p) => p.message.startsWith('waiting-for-profile')),
      30_000,
      20,
    );
    expect(waitMessage.message).toMatch(
      /^waiting-for-profile: Queued behind task [\w-]+ \(profile "sandbox"; gflow mcp run, pid \d+, Generate images \(gflow_generate_image\)\), waiting up to 180 s\.$/,
    );

    const first = await running;
    expect(first.isError, JSON.stringify(first.structured)).toBe(false);
    // Server 1's job went through undisturbed; only then did server 2 send its submit.
    expect(e2e.sim.received.submits()).toHaveLength(1);
    const second = await waiting;
    expect(second.isError, JSON.stringify(second.structured)).toBe(false);
    expect(second.structured).toMatchObject({ status: 'completed' });

    const submits = e2e.sim.received.submits();
    const handOff = startOf(progress, 'starting-browser') - first.endedAt;
    const toSubmit = wallOf(submits[1]!.at) - first.endedAt;
    console.log(
      `busy hand-off: server 2 held the profile ${handOff} ms after server 1's result and submitted after ${Math.round(toSubmit)} ms`,
    );
    // Server 1 gave the profile up at the end of its call, because server 2 was waiting for it.
    expect(handedOver(one, 'profile handed over after the call'), one.stderr()).toBe(true);
  }, 150_000);

  it('a CLI run next to an idle server succeeds; next to a busy one, with a lease wait of 0, it is refused at once, naming the server and its job', async () => {
    if (!two) throw new Error('servers not started');
    resetLog();
    // Server 2 holds the profile warm and idle since the last test.
    expect(holderRecord()).toMatchObject({ activity: 'idle', hands_off: true });
    const cli = await e2e.cli(['image', 't2i', 'from a terminal', '--aspect', '1:1', '--sandbox', '--json']);
    expect(cli.exitCode, cli.stdout + cli.stderr.slice(-1500)).toBe(0);
    expect(json(cli)).toMatchObject({ status: 'completed' });

    e2e.sim.scenario.setLatency(0.25);
    const running = generate(two, 'server two, busy');
    await waitFor('server 2 to submit', () => e2e.sim.received.submits().length === 2, 60_000, 20);
    // Only an explicit lease wait of 0 fails fast (the CLI waits in line by default, issue 38).
    const refused = await e2e.cli(['image', 't2i', 'too early', '--sandbox', '--json'], {
      env: { GFLOW_CLI_LEASE_WAIT_SECONDS: '0' },
    });
    const out = json(refused);
    expect(out['status']).toBe('failed');
    const problem = out['error'] as Record<string, unknown>;
    expect(refused.exitCode, JSON.stringify(out)).toBe(11);
    expect(problem).toMatchObject({
      type: 'https://gflow.dev/errors/profile-locked',
      status: 409,
      holder_surface: 'mcp run',
      holder_activity: 'busy',
    });
    expect(String(problem['detail'])).toMatch(
      /in use by another process \(gflow mcp run, pid \d+, profile "sandbox", since [^)]+\), busy with Generate images \(gflow_generate_image\) since /,
    );
    expect((await running).isError).toBe(false);
  }, 150_000);
});
