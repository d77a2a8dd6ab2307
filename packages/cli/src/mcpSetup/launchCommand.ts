import fs from 'node:fs';
import path from 'node:path';

/** How an MCP client starts this gflow: `gflow mcp run` by name, or this run's node and script. */
export interface LaunchCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** `path`: the `gflow` on PATH is this binary; `absolute`: it is not, so the absolute paths of this run. */
  readonly via: 'path' | 'absolute';
  /** Why: what was found on PATH. */
  readonly reason: string;
}

export interface LaunchInfo {
  readonly env: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
  /** The node running this binary (process.execPath). */
  readonly execPath: string;
  /** The script this binary was started as (process.argv[1]). */
  readonly scriptPath: string;
}

const MCP_RUN = ['mcp', 'run'] as const;

/** The first `name` on PATH (with PATHEXT on Windows) that is an executable file. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  const windows = platform === 'win32';
  const pathApi = windows ? path.win32 : path.posix;
  const dirs = (env['PATH'] ?? env['Path'] ?? '').split(windows ? ';' : ':').filter(Boolean);
  const exts = windows ? ['', ...(env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = pathApi.join(dir, `${name}${ext}`);
      try {
        if (!fs.statSync(candidate).isFile()) continue;
        if (!windows) fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      } catch {
        // not there, or not executable
      }
    }
  }
  return undefined;
}

function realpath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/**
 * What an MCP client config should run to start this gflow. `gflow` by name only when the
 * `gflow` on PATH is this very binary (the same file once symlinks are followed); otherwise —
 * no `gflow` on PATH (an npx run, a node_modules install, the repository's bin/gflow.js) or
 * another one — the absolute node and script of this run, which the client can start whatever
 * its PATH is.
 */
export function mcpLaunchCommand(info: LaunchInfo): LaunchCommand {
  if (!info.scriptPath)
    return { command: 'gflow', args: MCP_RUN, via: 'path', reason: 'the running script is not known' };
  const script = realpath(info.scriptPath);
  const onPath = findOnPath('gflow', info.env, info.platform);
  if (onPath && realpath(onPath) === script)
    return { command: 'gflow', args: MCP_RUN, via: 'path', reason: `the gflow on PATH (${onPath}) is this binary` };
  return {
    command: info.execPath,
    args: [script, ...MCP_RUN],
    via: 'absolute',
    reason: onPath
      ? `the gflow on PATH (${onPath}) is another file than this binary (${script})`
      : 'gflow is not on PATH',
  };
}
