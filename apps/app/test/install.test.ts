// Installing gflow the way the README says (issue 28): @gflow/app is not on the npm registry, so
// "Using it" packs this checkout (`npm run pack:app` = bootstrap + apps/app/scripts/pack.mjs) and
// installs the tarball with `npm install -g`. This runs pack.mjs, then the README's install line
// as written — into a private global prefix, from a loopback registry that serves gflow's two
// runtime dependencies — and the README's `gflow …` lines from a directory outside the checkout.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, cliEnv, connectStdio, makeHome } from '@gflow/testkit/cli';
import {
  type CommandRun,
  dependencyClosure,
  npmEnv,
  runCommand as run,
  startPackageRegistry,
} from '@gflow/testkit/registry';

const APP_DIR = path.join(REPO_ROOT, 'apps', 'app');
const VERSION = (JSON.parse(fs.readFileSync(path.join(APP_DIR, 'package.json'), 'utf8')) as { version: string })
  .version;

/** The commands of README.md's "Using it" block, without their comments. */
function readmeUsingIt(): string[] {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /^## Using it\s+```sh\n([\s\S]*?)```/m.exec(readme)?.[1];
  expect(block, 'README.md has a "## Using it" sh block').toBeTruthy();
  return block!
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter(Boolean);
}

/** Splits a README command line into words, keeping "quoted text" whole. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

let registry: Awaited<ReturnType<typeof startPackageRegistry>>;
let where: string;
let prefix: string;
let tarball: string;
let installed: CommandRun;

/** npm's environment for the install: a private global prefix, cache and user config, the loopback registry. */
const installEnv = () => npmEnv(registry.url, where, { npm_config_prefix: prefix });

beforeAll(async () => {
  // The two runtime dependencies, and their own, as the workspace installed them.
  registry = await startPackageRegistry(dependencyClosure(APP_DIR, ['better-sqlite3', 'playwright-core']));
  {
    where = makeHome('install');
    prefix = path.join(where, 'global');
    // What `npm run pack:app` runs once the workspace is bootstrapped; it writes dist/gflow.tgz.
    const pack = spawnSync(process.execPath, [path.join(APP_DIR, 'scripts', 'pack.mjs')], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(pack.status, pack.stderr).toBe(0);
    tarball = pack.stdout.trim();
    const [packLine, installLine] = readmeUsingIt();
    expect(packLine).toBe('npm run pack:app');
    expect(installLine).toMatch(/^npm install -g \S+$/);
    // The README's install line, as written, from the checkout's root (where the README is read).
    const [npm, ...args] = words(installLine!);
    installed = await run(npm!, args, { cwd: REPO_ROOT, env: installEnv() });
  }
}, 240_000);

afterAll(async () => {
  await registry?.close();
  if (where) fs.rmSync(where, { recursive: true, force: true });
});

describe('the tarball pack.mjs writes', () => {
  it('is where the README installs it from, holds bin + dist only, and names real dependency versions', () => {
    expect(tarball).toBe(path.join(REPO_ROOT, 'dist', 'gflow.tgz'));
    expect(readmeUsingIt()[1]).toBe(`npm install -g ./${path.relative(REPO_ROOT, tarball)}`);
    const list = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
    const paths = list.stdout
      .split('\n')
      .filter(Boolean)
      .map((p) => p.replace(/^package\//, ''));
    expect(paths).toEqual(
      expect.arrayContaining([
        'package.json',
        'bin/gflow.js',
        'bin/distState.js',
        'dist/main.js',
        'dist/build.json',
        'dist/ws/packages/catalog/migrations/0001_initial.sql',
        'dist/ws/docs/KNOWN_ISSUES.md',
      ]),
    );
    expect(paths.filter((p) => p.startsWith('src/') || p.startsWith('test/') || p.includes('node_modules'))).toEqual(
      [],
    );
    const manifest = JSON.parse(
      spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout,
    ) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: '@gflow/app', version: VERSION, bin: { gflow: './bin/gflow.js' } });
    expect(manifest['scripts']).toBeUndefined();
    expect(manifest['devDependencies']).toBeUndefined();
    expect(JSON.stringify(manifest)).not.toMatch(/catalog:|workspace:/);
  });
});

describe("the README's install line and its gflow lines, outside the checkout", () => {
  const outside = () => {
    const cwd = path.join(where, 'somewhere');
    fs.mkdirSync(cwd, { recursive: true });
    return cwd;
  };
  /** PATH with the global prefix's bin first, and the node the shebang runs. */
  const onPath = () => `${path.join(prefix, 'bin')}${path.delimiter}${path.dirname(process.execPath)}`;
  const gflow = (args: readonly string[], home: string, env: Record<string, string> = {}) =>
    run(path.join(prefix, 'bin', 'gflow'), args, { cwd: outside(), env: cliEnv(home, { PATH: onPath(), ...env }) });

  it('installs `gflow` into the global prefix, fetching only from the loopback registry', () => {
    expect(installed.status, String(installed.stderr)).toBe(0);
    expect(fs.existsSync(path.join(prefix, 'bin', 'gflow'))).toBe(true);
    expect(registry.asked).toEqual(expect.arrayContaining(['/better-sqlite3', '/playwright-core']));
  });

  it('runs every gflow line of the README (their --help), --version, and the catalog (native SQLite)', async () => {
    const home = makeHome();
    const version = await gflow(['--version'], home);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);
    const lines = readmeUsingIt().slice(2);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      const [first, ...rest] = words(line);
      expect(first, line).toBe('gflow');
      // The command words: up to the first flag, placeholder or quoted prompt.
      const stop = rest.findIndex((w) => /^[-<]/.test(w) || /\s/.test(w));
      const command = stop < 0 ? rest : rest.slice(0, stop);
      const help = await gflow([...command, '--help'], home);
      expect(help.status, `${line}: ${help.stderr}`).toBe(0);
      expect(help.stdout, line).toContain(`gflow ${command.join(' ')}`);
    }
    const models = await gflow(['models', '--json'], home);
    expect(models.status, models.stderr).toBe(0);
    expect((JSON.parse(models.stdout) as { image: { models: unknown[] } }).image.models.length).toBeGreaterThan(0);
    const listed = await gflow(['data', 'list', 'projects', '--json'], home);
    expect(listed.status, listed.stderr).toBe(0);
    expect(fs.existsSync(path.join(home, 'gflow.db'))).toBe(true);
  });

  it('mcp setup writes "gflow" (it is on PATH), and the server it names answers', async () => {
    const home = makeHome();
    const file = path.join(home, 'claude.json');
    const setup = await gflow(['mcp', 'setup', '--config-path', file, '--json'], home);
    expect(setup.status, setup.stderr).toBe(0);
    expect(JSON.parse(setup.stdout)).toMatchObject({ launch: 'path' });
    const entry = (
      JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: { gflow: { command: string; args: string[] } } }
    ).mcpServers.gflow;
    expect(entry).toEqual({ command: 'gflow', args: ['mcp', 'run'] });

    // Started as the client would: the entry's command, found on PATH.
    const conn = await connectStdio(
      { command: entry.command, args: entry.args, env: cliEnv(home, { PATH: onPath() }), cwd: outside() },
      { name: 'gflow-install-test' },
    );
    try {
      expect((await conn.client.listTools()).tools.map((t) => t.name)).toContain('gflow_generate_image');
      const issues = await conn.client.readResource({ uri: 'gflow://docs/known-issues' });
      const text = issues.contents.map((c) => ('text' in c ? c.text : '')).join('');
      const firstIssue = /^### (.+)$/m.exec(
        fs.readFileSync(path.join(REPO_ROOT, 'docs', 'KNOWN_ISSUES.md'), 'utf8'),
      )?.[1];
      expect(text).toContain(firstIssue!.trim().slice(0, 30));
      // The MCP App page inlines the ext-apps View SDK: the installed binary has its copy (build.mjs RUNTIME_COPIES).
      const view = (await conn.client.readResource({ uri: 'ui://gflow/result.html' })).contents[0];
      expect(view).toMatchObject({ mimeType: 'text/html;profile=mcp-app', text: expect.stringContaining('new App(') });
    } finally {
      await conn.close();
    }

    // Without the prefix's bin on PATH (npx, a node_modules install), the absolute node and script.
    const other = path.join(home, 'cursor.json');
    const absolute = await run(
      process.execPath,
      [
        path.join(prefix, 'lib', 'node_modules', '@gflow', 'app', 'bin', 'gflow.js'),
        'mcp',
        'setup',
        '--target',
        'cursor',
      ],
      {
        cwd: outside(),
        env: cliEnv(home, { PATH: path.dirname(process.execPath), GFLOW_CLI_MCP_CONFIG_PATH: other }),
      },
    );
    expect(absolute.status, absolute.stderr).toBe(0);
    expect(absolute.stdout).toContain('absolute paths: gflow is not on PATH');
    expect(JSON.parse(fs.readFileSync(other, 'utf8'))).toEqual({
      mcpServers: {
        gflow: {
          command: process.execPath,
          args: [
            fs.realpathSync(path.join(prefix, 'lib', 'node_modules', '@gflow', 'app', 'bin', 'gflow.js')),
            'mcp',
            'run',
          ],
        },
      },
    });
  }, 60_000);

  it('update --check says not published (exit 0) and how an install from a checkout upgrades', async () => {
    const home = makeHome();
    const r = await gflow(['update', '--check', '--json'], home, { GFLOW_CLI_UPDATE_REGISTRY: registry.url });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'not_published',
      installer: 'npm',
      command: 'git pull && npm run pack:app && npm install -g ./dist/gflow.tgz',
    });
  });
});
