import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findOnPath, mcpLaunchCommand } from './launchCommand.js';

function dir(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-launch-')));
}

describe('mcpLaunchCommand', () => {
  const script = path.join(dir(), 'gflow.js');
  fs.writeFileSync(script, '', { mode: 0o755 });
  const info = { platform: 'linux' as const, execPath: '/opt/node/bin/node', scriptPath: script };

  it('is `gflow mcp run` when the gflow on PATH is this script (followed through symlinks)', () => {
    const bin = dir();
    fs.symlinkSync(script, path.join(bin, 'gflow'));
    expect(mcpLaunchCommand({ ...info, env: { PATH: `/nowhere:${bin}` } })).toMatchObject({
      command: 'gflow',
      args: ['mcp', 'run'],
      via: 'path',
    });
  });

  it('is the absolute node and script when gflow is not on PATH, or is another file', () => {
    expect(mcpLaunchCommand({ ...info, env: { PATH: dir() } })).toEqual({
      command: '/opt/node/bin/node',
      args: [script, 'mcp', 'run'],
      via: 'absolute',
      reason: 'gflow is not on PATH',
    });
    const bin = dir();
    fs.writeFileSync(path.join(bin, 'gflow'), '#!/bin/sh\n', { mode: 0o755 });
    expect(mcpLaunchCommand({ ...info, env: { PATH: bin } })).toMatchObject({
      via: 'absolute',
      reason: `the gflow on PATH (${path.join(bin, 'gflow')}) is another file than this binary (${script})`,
    });
    // The script as started through a symlink (an npm bin link) is written as the file it links to.
    const link = path.join(dir(), 'gflow');
    fs.symlinkSync(script, link);
    expect(mcpLaunchCommand({ ...info, scriptPath: link, env: { PATH: '' } }).args[0]).toBe(script);
  });
});

describe('findOnPath', () => {
  it('skips files that are not executable and directories, on POSIX', () => {
    const a = dir();
    const b = dir();
    fs.writeFileSync(path.join(a, 'gflow'), '', { mode: 0o644 });
    fs.mkdirSync(path.join(b, 'gflow'));
    expect(findOnPath('gflow', { PATH: `${a}:${b}` }, 'linux')).toBeUndefined();
    const c = dir();
    fs.writeFileSync(path.join(c, 'gflow'), '', { mode: 0o755 });
    expect(findOnPath('gflow', { PATH: `${a}:${b}:${c}` }, 'linux')).toBe(path.join(c, 'gflow'));
  });
});
