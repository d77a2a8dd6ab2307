import type { FlagSpec } from '@gflow/cli';
import { type CliResult, cli } from '@gflow/testkit/cli';
import { type CliLeaf, walkFullTree } from '../cliTree.js';
import { type SurfaceHome, childOptions } from './environment.js';
import { type CallOutcome, type SurfaceDriver, operationNamed, outcomeOfReply } from './outcome.js';

/** What one run of the binary printed (the kit's cli() result). */
export type CliRun = CliResult;

/** Runs the real binary once, as a user would (`node apps/app/bin/gflow.js …`). */
export function runGflow(args: readonly string[], where: SurfaceHome): Promise<CliRun> {
  return cli(args, childOptions(where));
}

/** An operation the CLI offers no command for (a surface gap, not a failure of the call). */
export class NoCliCommandError extends Error {
  override readonly name = 'NoCliCommandError';
}

function toolSpecArg(value: unknown): string {
  const spec = value as { name: string; options?: Record<string, unknown> };
  const options = Object.entries(spec.options ?? {}).map(([k, v]) => `${k}=${String(v)}`);
  return options.length ? `${spec.name}:${options.join(',')}` : spec.name;
}

function flagArgs(flag: FlagSpec, value: unknown): string[] {
  const values = flag.repeatable && Array.isArray(value) ? value : [value];
  return values.map((v) => {
    if (flag.key === 'tools') return `--${flag.name}=${toolSpecArg(v)}`;
    if (flag.kind === 'json') return `--${flag.name}=${JSON.stringify(v)}`;
    return `--${flag.name}=${String(v)}`;
  });
}

/**
 * The command that runs an operation: among the commands declaring it, the
 * one named after `args.mode` (video t2v/i2v/r2v), else the first whose flags
 * and positionals take every argument.
 */
export function pickCommand(
  leaves: readonly CliLeaf[],
  operation: string,
  args: Readonly<Record<string, unknown>>,
): { leaf: CliLeaf; args: Record<string, unknown> } {
  const candidates = leaves.filter((l) => l.spec.operation === operation);
  if (!candidates.length) throw new NoCliCommandError(`No gflow command runs ${operation}.`);
  const mode = typeof args['mode'] === 'string' ? args['mode'] : undefined;
  const byMode = mode ? candidates.find((l) => l.path.split(' ').at(-1) === mode) : undefined;
  if (byMode) {
    const { mode: _mode, ...rest } = args;
    return { leaf: byMode, args: rest };
  }
  const takes = (leaf: CliLeaf) =>
    Object.keys(args).every(
      (key) => leaf.flags.some((f) => f.key === key) || leaf.positionals.some((p) => p.key === key),
    );
  const leaf = candidates.find(takes);
  if (!leaf)
    throw new NoCliCommandError(
      `No gflow command for ${operation} takes ${Object.keys(args).join(', ')} (tried ${candidates.map((c) => c.path).join(', ')}).`,
    );
  return { leaf, args: { ...args } };
}

/** argv for a command and tool-style arguments: positionals in order, then `--flag=value`, then --json. */
export function argvFor(leaf: CliLeaf, args: Readonly<Record<string, unknown>>): string[] {
  const positionals = leaf.positionals.filter((p) => args[p.key] !== undefined).map((p) => String(args[p.key]));
  const flags = Object.entries(args)
    .filter(([key]) => !leaf.positionals.some((p) => p.key === key))
    .flatMap(([key, value]) => {
      const flag = leaf.flags.find((f) => f.key === key);
      if (!flag) throw new Error(`'gflow ${leaf.path}' has no flag for ${key}`);
      return flagArgs(flag, value);
    });
  return [...leaf.path.split(' '), ...positionals, ...flags, '--json'];
}

/** The CLI surface: one process per call, `--json`, the exit code kept. */
export function cliDriver(where: SurfaceHome): SurfaceDriver {
  let leaves: Promise<CliLeaf[]> | undefined;
  return {
    surface: 'cli',
    home: where.home,
    outputDir: where.outputDir,
    costly: true,
    async call(operation, args = {}): Promise<CallOutcome> {
      const op = operationNamed(operation);
      const picked = pickCommand(await (leaves ??= walkFullTree()), op.name, args);
      const run = await runGflow(argvFor(picked.leaf, picked.args), where);
      let reply: unknown;
      try {
        reply = JSON.parse(run.stdout);
      } catch {
        return {
          ok: false,
          problem: {
            type: 'about:blank',
            title: 'not one JSON document',
            detail: `stdout: ${run.stdout.slice(0, 500)}\nstderr: ${run.stderr.slice(0, 500)}`,
          },
          exitCode: run.exitCode,
        };
      }
      return outcomeOfReply(reply, run.exitCode !== 0, run.exitCode);
    },
    listTools: async () => undefined,
    serverLog: () => undefined,
    async close() {},
  };
}
