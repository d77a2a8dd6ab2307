import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, json, makeHome } from '@gflow/testkit/cli';
import { seedMedia, withCatalog, seedId } from './catalogSeed.js';

const BROWSER = { GFLOW_CLI_BROWSER_EXECUTABLE: process.execPath };

interface DoctorReport {
  overall_status: string;
  checks: Array<{
    check: string;
    severity: string;
    detail: string;
    remediation?: string;
    ids?: string[];
    count?: number;
  }>;
}

describe('gflow doctor', () => {
  it('--live: --fix does not go with it, --capture and --profile need it, and no profile is exit 2 before a browser', async () => {
    const home = makeHome();
    for (const args of [
      ['doctor', '--capture', 'x'],
      ['doctor', '--profile', 'ana'],
      ['doctor', '--live', '--fix'],
    ]) {
      const r = await cli(args, { home, env: BROWSER });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('[UsageError]');
    }
    const r = await cli(['doctor', '--live', '--json'], { home, env: BROWSER });
    expect(r.exitCode).toBe(2);
    expect((json(r) as { error: { type: string } }).error.type).toMatch(/no-(default-)?profile$/);
    const bad = await cli(['doctor', '--live', '--profile', '../x'], { home, env: BROWSER });
    expect(bad.exitCode).toBe(13);
  });

  it('is ok (exit 0) on a fresh home and does not create the catalog', async () => {
    const home = makeHome();
    fs.chmodSync(home, 0o700);
    const r = await cli(['doctor', '--json'], { home, env: BROWSER });
    const report = json(r) as unknown as DoctorReport;
    expect(report.overall_status, JSON.stringify(report.checks)).toBe('ok');
    expect(r.exitCode).toBe(0);
    expect(report.checks.map((c) => c.check)).toEqual(
      expect.arrayContaining(['runtime', 'home', 'settings', 'browser', 'catalog']),
    );
    expect(report.checks[0]).toEqual({
      check: 'runtime',
      severity: 'ok',
      detail: `Node ${process.versions.node} (supported: ^22.19.0 || >=24)`,
    });
    expect(fs.existsSync(`${home}/gflow.db`)).toBe(false);
  });

  it('exits 33 with a warning for catalogued files missing on disk', async () => {
    const home = makeHome();
    fs.chmodSync(home, 0o700);
    await seedMedia(home, 'alice', { fileExists: false });
    const r = await cli(['doctor', '--json'], { home, env: BROWSER });
    expect(r.exitCode).toBe(33);
    const report = json(r) as unknown as DoctorReport;
    expect(report.overall_status).toBe('issues');
    expect(report.checks).toContainEqual(expect.objectContaining({ check: 'catalog.local_files', severity: 'warn' }));
  });

  it('exits 33 for an operation stuck in started for more than a day, and for a missing browser', async () => {
    const home = makeHome();
    fs.chmodSync(home, 0o700);
    await withCatalog(home, (catalog) => {
      const op = catalog.operations.start({ profile: 'alice', command: 'image t2i' });
      catalog.database
        .prepare('UPDATE operations SET started_at = ? WHERE id = ?')
        .run(new Date(Date.now() - 2 * 86_400_000).toISOString(), op.id);
    });
    const r = await cli(['doctor'], { home, env: { GFLOW_CLI_BROWSER_EXECUTABLE: `${home}/no-such-chrome` } });
    expect(r.exitCode).toBe(33);
    expect(r.stdout).toMatch(/catalog\.operations\s+warn/);
    expect(r.stdout).toMatch(/browser\s+fail/);
    expect(r.stdout).toContain('Overall: issues');
  });

  it('lists a large write-ahead log, a missing file, an unnamed row and a signed-out profile, each with its fix', async () => {
    const home = makeHome();
    fs.chmodSync(home, 0o700);
    await seedMedia(home, 'alice', { fileExists: false });
    // A profile gflow signed in once whose cookie store is gone.
    const bob = `${home}/profile_bob`;
    fs.mkdirSync(bob, { mode: 0o700 });
    fs.writeFileSync(`${bob}/.gflow_account`, 'bob@example.com');
    fs.writeFileSync(`${bob}/.gflow_browser_strategy`, 'internal');
    // A write-ahead log nobody folded in (sparse: its size is what the check reads).
    fs.closeSync(fs.openSync(`${home}/gflow.db-wal`, 'w'));
    fs.truncateSync(`${home}/gflow.db-wal`, 80 * 1024 * 1024);
    const r = await cli(['doctor', '--json'], { home, env: { ...BROWSER, FLOW_CLI_TIMEOUT_SECONDS: '900' } });
    expect(r.exitCode).toBe(33);
    const byCheck = new Map((json(r) as unknown as DoctorReport).checks.map((c) => [c.check, c]));
    expect(byCheck.get('catalog.wal')).toMatchObject({
      severity: 'warn',
      remediation: expect.stringContaining('gflow serve'),
    });
    expect(byCheck.get('catalog.local_files')).toMatchObject({
      severity: 'warn',
      remediation: 'gflow data prune (drops their rows)',
      count: 1,
    });
    expect(byCheck.get('catalog.display_name_missing')).toMatchObject({
      severity: 'warn',
      ids: [seedId('img-1'), seedId('vid-alice')].sort(),
      count: 2,
      remediation: expect.stringContaining('gflow data sync'),
    });
    expect(byCheck.get('catalog.sha256_missing')).toMatchObject({ severity: 'warn', ids: [seedId('img-1')] });
    expect(byCheck.get('profiles.cookies')).toMatchObject({
      severity: 'warn',
      ids: ['bob'],
      remediation: 'gflow auth login --profile bob',
    });
    expect(byCheck.get('settings.deprecated')).toMatchObject({
      severity: 'warn',
      ids: ['FLOW_CLI_TIMEOUT_SECONDS'],
      remediation: expect.stringContaining('GFLOW_CLI_TIMEOUT_SECONDS'),
    });
    expect(byCheck.get('catalog.integrity')).toMatchObject({ severity: 'ok' });
    // The text form says the same fixes under its table.
    const text = await cli(['doctor'], { home, env: BROWSER });
    expect(text.stdout).toContain('To fix:');
    expect(text.stdout).toContain('profiles.cookies [bob]: gflow auth login --profile bob');
  });

  it('--fix repairs the safe findings (home mode, write-ahead log, missing rows, unhashed files) and checks again', async () => {
    const home = makeHome();
    await seedMedia(home, 'alice', { fileExists: false });
    const { imagePath } = await seedMedia(home, 'carol', { mediaId: 'img-c' });
    fs.closeSync(fs.openSync(`${home}/gflow.db-wal`, 'w'));
    fs.truncateSync(`${home}/gflow.db-wal`, 80 * 1024 * 1024);
    fs.chmodSync(home, 0o777);
    const before = new Map(
      (json(await cli(['doctor', '--json'], { home, env: BROWSER })) as unknown as DoctorReport).checks.map((c) => [
        c.check,
        c.severity,
      ]),
    );
    for (const check of ['home', 'catalog.wal', 'catalog.local_files', 'catalog.sha256_missing'])
      expect(before.get(check), check).toBe('warn');

    const r = await cli(['doctor', '--fix', '--json'], { home, env: BROWSER });
    const report = json(r) as unknown as DoctorReport & {
      fixes: Array<{ check: string; outcome: string; count?: number }>;
    };
    expect(report.fixes).toEqual([
      expect.objectContaining({ check: 'home', outcome: 'fixed' }),
      expect.objectContaining({ check: 'catalog.local_files', outcome: 'fixed', count: 1 }),
      expect.objectContaining({ check: 'catalog.sha256_missing', outcome: 'fixed', count: 1 }),
      expect.objectContaining({ check: 'catalog.wal', outcome: 'fixed' }),
    ]);
    const after = new Map(report.checks.map((c) => [c.check, c.severity]));
    for (const check of ['home', 'catalog.wal', 'catalog.local_files', 'catalog.sha256_missing'])
      expect(after.get(check), check).toBe('ok');
    expect(fs.statSync(home).mode & 0o777).toBe(0o700);
    expect(fs.existsSync(imagePath)).toBe(true);
    // Unnamed assets are not the doctor's to repair: they are still reported, with their command.
    expect(after.get('catalog.display_name_missing')).toBe('warn');
    expect(r.exitCode).toBe(33);

    const again = await cli(['doctor', '--fix'], { home, env: BROWSER });
    expect(again.stdout).toContain('Nothing to repair.');
  });

  it('reports a config.toml that does not parse (gflow would refuse to run) as a failed check', async () => {
    const home = makeHome();
    fs.chmodSync(home, 0o700);
    fs.writeFileSync(`${home}/config.toml`, 'default_profile = "work\n[[[\n');
    const r = await cli(['doctor', '--json'], { home, env: BROWSER });
    expect(r.exitCode).toBe(33);
    const report = json(r) as unknown as DoctorReport;
    expect(report.overall_status).toBe('issues');
    expect(report.checks).toContainEqual(
      expect.objectContaining({
        check: 'settings.config',
        severity: 'fail',
        detail: expect.stringMatching(/^config\.toml is not valid TOML/),
        remediation: expect.stringContaining(`${home}/config.toml`),
      }),
    );
    // A config.toml that parses is a passed check.
    fs.writeFileSync(`${home}/config.toml`, 'default_profile = "work"\n');
    const fine = json(await cli(['doctor', '--json'], { home, env: BROWSER })) as unknown as DoctorReport;
    expect(fine.checks).toContainEqual(expect.objectContaining({ check: 'settings.config', severity: 'ok' }));
  });

  it('reports a home gflow cannot use: a file in its place, one it cannot write, one it cannot create', async () => {
    const scratch = makeHome();
    const file = `${scratch}/not-a-dir`;
    fs.writeFileSync(file, 'x');
    // /proc/1 is a directory nobody may write in, root included (the tests may run as root).
    const cases = [
      { home: file, detail: `${file} is not a directory.` },
      { home: `${file}/gflow`, detail: `${file}/gflow cannot be created: ${file} is not a directory.` },
      { home: '/proc/1', detail: '/proc/1 is not readable and writable by you.' },
      { home: '/proc/1/gflow', detail: '/proc/1/gflow cannot be created: /proc/1 is not writable by you.' },
    ];
    for (const c of cases) {
      const r = await cli(['doctor', '--json'], { env: { ...BROWSER, GFLOW_CLI_HOME: c.home } });
      expect(r.exitCode, c.home).toBe(33);
      const report = json(r) as unknown as DoctorReport;
      expect(report.checks, c.home).toContainEqual({ check: 'home', severity: 'fail', detail: c.detail });
    }
  });

  it('reports a bad setting as a finding instead of failing', async () => {
    const home = makeHome();
    const r = await cli(['doctor', '--json'], {
      home,
      env: { ...BROWSER, GFLOW_CLI_CONCURRENCY: '1', GFLOW_CLI_LOG_LEVEL: 'LOUD' },
    });
    expect(r.exitCode).toBe(33);
    expect((json(r) as unknown as DoctorReport).checks).toContainEqual(
      expect.objectContaining({
        check: 'settings',
        severity: 'fail',
        detail: expect.stringContaining('GFLOW_CLI_LOG_LEVEL'),
      }),
    );
  });
});
