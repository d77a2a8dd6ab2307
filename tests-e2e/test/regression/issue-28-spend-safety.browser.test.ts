// Issue 28, items 1–4: the CLI never bills a wrong job, never fakes the sandbox, checks the
// output before the spend and never loses a paid clip to Ctrl-C. Through the real CLI in real
// Chromium against the simulator, reading what the simulator received.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makePng } from '@gflow/flow-sim';
import { taskRow, taskRows } from '../helpers/catalog.js';
import { json, waitFor } from '@gflow/testkit';
import { SANDBOX_EMAIL, submits, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'issue-28', signIn: true });
let frames: { day: string; night: string };

beforeAll(async () => {
  frames = { day: path.join(e2e.home, 'day.png'), night: path.join(e2e.home, 'night.png') };
  fs.writeFileSync(frames.day, makePng(640, 360, 'day'));
  fs.writeFileSync(frames.night, makePng(640, 360, 'night'));
}, 90_000);

afterEach(() => {
  e2e.sim.scenario.clearFailures();
  e2e.sim.scenario.setLatency('fast');
});

/** The problem of a refusal's one failure envelope `{status: 'error', error}`. */
const problem = (stdout: string): Record<string, unknown> => {
  const envelope = JSON.parse(stdout) as { status?: unknown; error?: Record<string, unknown> };
  expect(envelope.status).toBe('error');
  return envelope.error ?? {};
};

describe('1. a wrong job never goes out', () => {
  it('Omni i2v with start and end frames (the docs/CLI.md example) sends an interpolation submit with both frames', async () => {
    const before = submits(e2e.sim).length;
    const r = await e2e.cli([
      'video',
      'i2v',
      'day to night',
      '--initial-frame',
      frames.day,
      '--end-frame',
      frames.night,
      '--model',
      'omni-flash',
      '--sandbox',
      '--json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = e2e.sim.received.submits().slice(before);
    expect(sent.map((s) => s.rpcId)).toEqual(['nprQif']);
    expect(sent[0]?.inner).toMatch(/abra_interpolation_/);
  });

  it('Omni i2v with a start frame only sends eb1hJf with an Omni i2v key', async () => {
    const before = submits(e2e.sim).length;
    const r = await e2e.cli([
      'video',
      'i2v',
      'day to dusk',
      '--initial-frame',
      frames.day,
      '--model',
      'omni-flash',
      '--sandbox',
      '--json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = e2e.sim.received.submits().slice(before);
    expect(sent.map((s) => s.rpcId)).toEqual(['eb1hJf']);
    expect(sent[0]?.inner).toMatch(/abra_i2v_/);
  });

  it('a page that builds the wrong body: aborted in the browser, the simulator receives no submit, exit 7 "nothing was sent"', async () => {
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'wrong_submit_body');
    const before = submits(e2e.sim).length;
    const r = await e2e.cli([
      'video',
      'i2v',
      'day to night',
      '--initial-frame',
      frames.day,
      '--model',
      'omni-flash',
      '--sandbox',
      '--json',
    ]);
    expect(r.exitCode, r.stderr).toBe(7);
    const out = json(r);
    expect(out['status']).toBe('failed');
    const error = out['error'] as Record<string, unknown>;
    expect(error['retryable']).toBe(false);
    expect(String(error['detail'])).toMatch(/nothing reached Flow and nothing was billed/);
    expect(String(error['remediation_hint'])).toMatch(/Nothing was sent/);
    expect(submits(e2e.sim).length).toBe(before);
  });
});

describe('2. GFLOW_CLI_SANDBOX=true is the sandbox', () => {
  it('a generation without --sandbox runs against the simulator, with the banner, in the sandbox home', async () => {
    const before = submits(e2e.sim).length;
    const r = await e2e.cli(['image', 't2i', 'a lantern', '--json'], { env: { GFLOW_CLI_SANDBOX: 'true' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('gflow sandbox: using the built-in Flow simulator');
    const out = json(r);
    expect(out['sandbox']).toBe(true);
    expect((out['files'] as string[])[0]?.startsWith(e2e.sandboxHome)).toBe(true);
    expect(submits(e2e.sim).slice(before)).toEqual(['ogiZ0b']);
    expect(fs.existsSync(path.join(e2e.home, 'gflow.db'))).toBe(false);
  });

  it('so is a .env in the working directory, and `mcp run` honours it too', async () => {
    const cwd = fs.mkdtempSync(path.join(e2e.home, 'cwd-'));
    fs.writeFileSync(path.join(cwd, '.env'), 'GFLOW_CLI_SANDBOX=true\n');
    const r = await e2e.cli(['data', 'list', 'profiles', '--json'], { cwd, env: { HOME: cwd } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('gflow sandbox:');
    expect(r.stdout).toContain('"sandbox"');
  });
});

describe('3. the output is checked before anything is sent', () => {
  const cases: Array<[string, () => string[]]> = [
    ['-o /proc/nope.png', () => ['-o', '/proc/gflow-nope/x.png']],
    [
      '-o existing.txt/sub.png',
      () => {
        const file = path.join(e2e.home, 'existing.txt');
        fs.writeFileSync(file, 'not a directory');
        return ['-o', path.join(file, 'sub.png')];
      },
    ],
    [
      '--out <a file>',
      () => {
        const file = path.join(e2e.home, 'a-file');
        fs.writeFileSync(file, 'x');
        return ['--out', file];
      },
    ],
  ];
  it.each(cases)('%s: exit 11 naming the path, no browser traffic at all', async (_name, args) => {
    const before = e2e.sim.received.calls().length;
    const r = await e2e.cli(['image', 't2i', 'a fox', '--sandbox', '--json', ...args()]);
    expect(r.exitCode, r.stderr).toBe(11);
    const p = problem(r.stdout);
    expect(p['title']).toBe('Output Not Writable');
    expect(String(p['detail'])).toMatch(/cannot be written into .*Nothing was sent to Flow/);
    expect(String(p['detail'])).not.toMatch(/Unexpected/);
    expect(e2e.sim.received.calls().length).toBe(before);
  });

  it('an unwritable GFLOW_CLI_OUTPUT_DIR (the sandbox output) is refused the same way', async () => {
    const file = path.join(e2e.home, 'output-is-a-file');
    fs.writeFileSync(file, 'x');
    const before = e2e.sim.received.calls().length;
    const r = await e2e.cli(['image', 't2i', 'a fox', '--sandbox', '--json'], {
      env: { GFLOW_CLI_SANDBOX_OUTPUT_DIR: path.join(file, 'out') },
    });
    expect(r.exitCode, r.stderr).toBe(11);
    expect(String(problem(r.stdout)['detail'])).toContain('GFLOW_CLI_OUTPUT_DIR');
    expect(e2e.sim.received.calls().length).toBe(before);
  });
});

describe('4. Ctrl-C after the submit keeps the paid clip', () => {
  it('the task is indeterminate at once, the message names task, project and media, and data download fetches the media', async () => {
    // Slow enough that the clip is still running when Ctrl-C arrives (≈10 s from submit to done).
    e2e.sim.scenario.setLatency(0.25);
    const before = submits(e2e.sim).length;
    const run = e2e.spawn(['video', 't2v', 'a lighthouse in a storm', '--model', 'veo-lite', '--sandbox']);
    await waitFor('the t2v submit to reach Flow', () => submits(e2e.sim).length > before, 120_000);
    // The job's checkpoint names the media once Flow's submit reply did (state, not time).
    await waitFor(
      'the checkpoint to carry the media ids',
      () =>
        taskRows(e2e.dbPath).some(
          (t) =>
            t.status === 'working' &&
            (JSON.parse(t.checkpoint_json ?? '{}') as { media_ids?: string[] }).media_ids?.length,
        ),
      60_000,
    );
    process.kill(run.pid, 'SIGINT');
    const r = await run.done;
    expect(r.exitCode, r.stderr).toBe(130);
    const task = /task ([0-9a-f-]{36})/.exec(r.stderr)?.[1];
    const project = /project ([0-9a-f-]{36})/.exec(r.stderr)?.[1];
    const media = /media ([0-9a-f-]{36})/.exec(r.stderr)?.[1];
    expect({ task, project, media }, r.stderr).toEqual({
      task: expect.any(String),
      project: expect.any(String),
      media: expect.any(String),
    });
    expect(r.stderr).toContain(`gflow data download ${media}`);
    expect(taskRow(e2e.dbPath, task!)?.status).toBe('indeterminate');

    const errors = await e2e.cli(['data', 'list', 'errors', '--sandbox', '--json']);
    // The stopped run is a finished (failed) operation at once, in its project, not one left `started`.
    expect(errors.stdout).toContain(project!);
    expect(errors.stdout).toMatch(/cancelled/);

    e2e.sim.scenario.setLatency('fast');
    // The clip finishes in Flow on its own schedule; fetch it once it has (spends nothing).
    const got = await waitFor(
      'data download to fetch the finished clip',
      async () => {
        const d = await e2e.cli(['data', 'download', media!, '--sandbox', '--json']);
        return d.exitCode === 0 ? d : undefined;
      },
      90_000,
      2_000,
    );
    const file = String(json(got)['path']);
    expect(fs.readFileSync(file).subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(submits(e2e.sim).length).toBe(before + 1);
  });
});
