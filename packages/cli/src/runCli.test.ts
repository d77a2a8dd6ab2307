import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCli, walkCli } from './buildCli.js';
import { createBufferIo } from './cliIo.js';
import { defineGroup, defineLeaf, leafFlags, leafSpecOf } from './framework/commandSpec.js';
import { operationLeaf } from './framework/operationLeaf.js';
import { formatProgress } from './output/progressReporter.js';
import { runCli } from './runCli.js';

const env = (): NodeJS.ProcessEnv => ({ GFLOW_CLI_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-cli-unit-')) });

const waitsForever = defineLeaf({
  name: 'hang',
  description: 'Never finishes on its own.',
  run: () => new Promise(() => undefined),
});
const notYet = operationLeaf({
  name: 'future',
  description: 'Bound to an operation core lacks.',
  operation: 'noSuchOperation',
  schema: () => undefined,
});
const root = defineGroup({ name: 'gflow', description: 'test root', children: { hang: waitsForever, future: notYet } });

describe('runCli', () => {
  it('`gflow help [command]` prints the help `--help` prints', async () => {
    for (const [asked, flagged] of [
      [['help'], ['--help']],
      [
        ['help', 'hang'],
        ['hang', '--help'],
      ],
    ] as const) {
      const a = createBufferIo();
      const b = createBufferIo();
      expect(await runCli(root, [...asked], { io: a, version: '1', env: env() })).toBe(0);
      expect(await runCli(root, [...flagged], { io: b, version: '1', env: env() })).toBe(0);
      expect(a.out()).toBe(b.out());
      expect(a.out().length).toBeGreaterThan(20);
    }
  });

  it('Ctrl-C (the signal) ends a running command with exit 130', async () => {
    const io = createBufferIo();
    const controller = new AbortController();
    const running = runCli(root, ['hang'], { io, version: '1', env: env(), signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(await running).toBe(130);
    expect(io.err()).toMatch(/^Error: \[CancelledError\] Interrupted/);
  });

  it('a command bound to an operation core lacks is a bug: exit 1, masked, no crash', async () => {
    const io = createBufferIo();
    expect(await runCli(root, ['future'], { io, version: '1', env: env() })).toBe(1);
    expect(io.err()).toContain('Unexpected Error; details were logged to logs/errors.log in the gflow home.');
    const json = createBufferIo();
    await runCli(root, ['future', '--json'], { io: json, version: '1', env: env() });
    expect(JSON.parse(json.out())).toMatchObject({
      status: 'error',
      error: { title: 'Unexpected Error', retryable: false },
    });
  });

  it('masks unexpected errors unless GFLOW_CLI_DEBUG_TRACEBACK is on', async () => {
    const boom = defineGroup({
      name: 'gflow',
      description: 'x',
      children: {
        boom: defineLeaf({
          name: 'boom',
          description: 'throws',
          run: () => Promise.reject(new TypeError('secret /home/me/token.txt')),
        }),
      },
    });
    const masked = createBufferIo();
    const home = env();
    expect(await runCli(boom, ['boom'], { io: masked, version: '1', env: home })).toBe(1);
    expect(masked.err()).toContain('Unexpected TypeError; details were logged to logs/errors.log in the gflow home.');
    expect(masked.err()).not.toContain('secret');
    // The file it names exists and holds the details, under the instance of the message (issue 40).
    const log = path.join(String(home['GFLOW_CLI_HOME']), 'logs', 'errors.log');
    const entry = JSON.parse(fs.readFileSync(log, 'utf8').trim()) as Record<string, string>;
    expect(entry['details']).toMatch(/^TypeError: secret \/home\/me\/token\.txt\n\s+at /);
    expect(masked.err()).toContain(`Details: ${log} (entry ${entry['instance']}); run the command again with -v`);
    expect((fs.statSync(log).mode & 0o777).toString(8)).toBe('600');
    const verbose = createBufferIo();
    await runCli(boom, ['boom', '-v'], { io: verbose, version: '1', env: home });
    expect(verbose.err()).toContain(`Details, as logged to ${log}`);
    expect(verbose.err()).toContain('TypeError: secret /home/me/token.txt');
    const shown = createBufferIo();
    await runCli(boom, ['boom'], { io: shown, version: '1', env: { ...env(), GFLOW_CLI_DEBUG_TRACEBACK: '1' } });
    expect(shown.err()).toContain('secret /home/me/token.txt');
  });

  it('the real tree: every leaf has a description, and `--json` and `--help` are everywhere', async () => {
    const tree = buildCli({ version: '9.9.9' });
    const leaves = await walkCli(tree);
    const paths = leaves.map((l) => l.path.join(' '));
    for (const expected of [
      'auth login',
      'auth status',
      'auth renew',
      'auth logout',
      'auth list',
      'auth use',
      'image t2i',
      'image i2i',
      'image upload',
      'image upscale',
      'image batch',
      'video t2v',
      'video i2v',
      'video r2v',
      'video upscale',
      'credits user',
      'credits list',
      'character list',
      'character show',
      'character voices',
      'instructions list',
      'instructions add',
      'instructions enable',
      'instructions disable',
      'instructions rm',
      'instructions toggle-mode',
      'instructions apply',
      'project list',
      'project show',
      'project create',
      'project rename',
      'data list projects',
      'data list images',
      'data list videos',
      'data list profiles',
      'data list errors',
      'data media',
      'data prune',
      'data download',
      'data errors export',
      'data errors prune',
      'models',
      'tools list',
      'tools show',
      'tools run',
      'mcp setup',
      'doctor',
      'update',
    ]) {
      expect(paths).toContain(expected);
    }
    for (const { path: p, def } of leaves) {
      const spec = leafSpecOf(def);
      expect(spec?.description, p.join(' ')).toBeTruthy();
      expect(
        leafFlags(spec!).some((f) => f.key === 'json'),
        p.join(' '),
      ).toBe(true);
      const io = createBufferIo();
      expect(await runCli(tree, [...p, '--help'], { io, version: '9.9.9', env: env() })).toBe(0);
      expect(io.out()).toContain(`gflow ${p.join(' ')}`);
    }
  });

  it("prints the version and adds the app's extra commands", async () => {
    const extra = defineLeaf({ name: 'run', description: 'extra run', run: async () => ({ data: { ran: true } }) });
    const tree = buildCli({ version: '9.9.9', extraCommands: { 'mcp run': extra } });
    const io = createBufferIo();
    expect(await runCli(tree, ['--version'], { io, version: '9.9.9' })).toBe(0);
    expect(io.out()).toBe('9.9.9\n');
    const ran = createBufferIo();
    expect(await runCli(tree, ['mcp', 'run', '--json'], { io: ran, version: '9.9.9', env: env() })).toBe(0);
    expect(JSON.parse(ran.out())).toEqual({ ran: true });
  });

  it('formats progress with the phase, Flow status, a bar of the count done and the elapsed time', () => {
    expect(formatProgress({ phase: 'generating', flowStatus: 'rendering in Flow', elapsedMs: 12_400 })).toBe(
      'Generating [rendering in Flow] 12s',
    );
    // progress/total is a count (files, steps), never bytes: no "0 B/1 B" (issue 41).
    expect(formatProgress({ phase: 'downloading', progress: 1, total: 2 })).toMatch(/^Downloading █{10}░{10} 1\/2$/);
  });
});
