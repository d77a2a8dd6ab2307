// On a terminal the progress line and log lines never share a line, and info lines stay quiet
// unless asked for, and the run ends with one summary line (issue 23, "Terminal output"): a real sandbox generation under a
// pseudo-terminal (util-linux `script`), its screen read back.
import { spawnSync } from 'node:child_process';
import { browserSetting } from '@gflow/testkit/browser';
import { GFLOW_BIN, cliEnv, makeHome } from '@gflow/testkit/cli';
import { describe, expect, it } from 'vitest';

/** What a terminal shows for raw output: `\r` returns to the line's start, ESC[2K clears the line. */
function screen(raw: string): string[] {
  const lines: string[] = [''];
  for (const part of raw.split(/(\r\n|\r|\x1b\[2K|\n)/)) {
    if (part === '\n' || part === '\r\n') lines.push('');
    else if (part === '\x1b[2K') lines[lines.length - 1] = '';
    else if (part !== '\r') lines[lines.length - 1] += part;
  }
  return lines.map((l) => l.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')).filter((l) => l.trim() !== '');
}

const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;

function underTerminal(
  args: readonly string[],
  env: Record<string, string>,
): { status: number | null; lines: string[] } {
  const command = [process.execPath, GFLOW_BIN, ...args].map(quote).join(' ');
  const run = spawnSync('script', ['-q', '-e', '-c', command, '/dev/null'], {
    env: { ...env, COLUMNS: '160', LINES: '40', TERM: 'xterm' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, lines: screen(run.stdout) };
}

describe('gflow on a terminal', () => {
  it('a sandbox image: no log line inside the progress line, no info lines, the result printed', () => {
    const home = makeHome();
    const env = cliEnv(home, browserSetting());
    const { status, lines } = underTerminal(['image', 't2i', 'a red fox in snow', '--sandbox'], env);
    expect(status, lines.join('\n')).toBe(0);
    // The spinner's frames are braille characters; a log line never follows one on the same line.
    expect(lines.filter((l) => /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏].*\[gflow\]/.test(l))).toEqual([]);
    expect(lines.filter((l) => l.includes('[gflow] info:'))).toEqual([]);
    expect(lines.join('\n')).toMatch(/\.(jpg|png)/);
    // The run ends with one summary line: what was made, where, how long.
    expect(lines.at(-1)).toMatch(/^✓ Made 1 image in project [0-9a-f-]{36}: \S+\.(jpg|png) in \d+\.\d s$/);
  }, 150_000);

  it('-v brings the info lines back, each on its own line', () => {
    const home = makeHome();
    const env = cliEnv(home, browserSetting());
    const { status, lines } = underTerminal(['image', 't2i', 'a hare at dusk', '--sandbox', '-v'], env);
    expect(status, lines.join('\n')).toBe(0);
    expect(lines.some((l) => l.startsWith('[gflow] info:') || l.startsWith('[gflow] debug:'))).toBe(true);
    expect(lines.filter((l) => /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏].*\[gflow\]/.test(l))).toEqual([]);
  }, 150_000);
});
