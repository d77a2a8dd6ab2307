// An empty listing says so in one line on a terminal ("No … yet"), never a bare header; its JSON
// (Lines) stays empty, as a script expects. The JSON Lines listings print text only on a terminal,
// so those run under a pseudo-terminal (util-linux `script`).
import { spawnSync } from 'node:child_process';
import { GFLOW_BIN, cli, cliEnv, makeHome } from '@gflow/testkit/cli';
import { describe, expect, it } from 'vitest';

const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;

/** `gflow <args>` on a terminal: its exit code and what the screen shows, trimmed. */
function onTerminal(home: string, args: readonly string[]): { status: number | null; screen: string } {
  const command = [process.execPath, GFLOW_BIN, ...args].map(quote).join(' ');
  const run = spawnSync('script', ['-q', '-e', '-c', command, '/dev/null'], {
    env: { ...cliEnv(home), COLUMNS: '160', TERM: 'dumb' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, screen: run.stdout.replace(/\r/g, '').trim() };
}

describe('empty listings', () => {
  it('on a terminal: one line each, no bare header', () => {
    const home = makeHome();
    const cases: Array<[readonly string[], string]> = [
      [['data', 'list', 'projects'], 'No projects in the catalog yet.'],
      [['data', 'list', 'images'], 'No images in the catalog yet.'],
      [['data', 'list', 'videos'], 'No videos in the catalog yet.'],
      [['data', 'list', 'profiles'], "No profiles in the catalog yet. Run 'gflow auth login'."],
      [['data', 'list', 'errors'], 'No errors in the catalog.'],
      [['data', 'list', 'images', '--offset', '40'], 'Nothing past offset 40.'],
      [['task', 'list'], 'No tasks in the queue.'],
      [['project', 'list'], 'No projects in the catalog yet.'],
      [['credits', 'list'], "No profiles yet. Run 'gflow auth login'."],
    ];
    for (const [args, line] of cases) {
      const { status, screen } = onTerminal(home, args);
      expect(status, args.join(' ')).toBe(0);
      expect(screen, args.join(' ')).toBe(line);
    }
    // credits usage with no run: its summary, and no table of nothing.
    const usage = onTerminal(home, ['credits', 'usage']);
    expect(usage.screen).toMatch(/0 quoted in 0 run\(s\)\./);
    expect(usage.screen).not.toMatch(/QUOTED/);
  });

  it('with --json (or piped) they stay empty: no rows, no message', async () => {
    const home = makeHome();
    for (const args of [
      ['data', 'list', 'images'],
      ['task', 'list'],
    ]) {
      for (const json of [true, false]) {
        const r = await cli([...args, ...(json ? ['--json'] : [])], { home });
        expect(r.exitCode, args.join(' ')).toBe(0);
        expect(r.stdout, `${args.join(' ')}${json ? ' --json' : ''}`).toBe('');
      }
    }
    const projects = await cli(['project', 'list', '--json'], { home });
    expect(JSON.parse(projects.stdout)).toMatchObject({ status: 'ok', projects: [] });
  });
});
