import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const APP_DIR = path.resolve(import.meta.dirname, '..');
export const BIN = path.join(APP_DIR, 'bin', 'gflow.js');

export interface CliResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** A fresh, private gflow home (and HOME, so no real client config is ever touched). */
export function makeHome(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-cli-test-'));
}

/** The environment of a test run: no GFLOW_* from the developer's shell, a temp home. */
export function cliEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(GFLOW_|FLOW_CLI_)/.test(key)) env[key] = value;
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    GFLOW_CLI_HOME: home,
    GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out'),
    NO_COLOR: '1',
    ...extra,
  };
}

/** Runs the real binary (`node apps/gflow/bin/gflow.js …`) and collects its output. */
export function cli(args: readonly string[], options: { home?: string; env?: Record<string, string>; cwd?: string; input?: string } = {}): Promise<CliResult> {
  const home = options.home ?? makeHome();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv(home, options.env), cwd: options.cwd ?? home, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ stdout, stderr, exitCode: code ?? (signal ? 128 : 1) }));
    child.stdin.end(options.input ?? '');
  });
}

/** Parses stdout as exactly one JSON document (throws otherwise). */
export function oneJson(result: CliResult): Record<string, unknown> {
  return JSON.parse(result.stdout) as Record<string, unknown>;
}
