import { ConfigurationError } from '@gflow/errors';
import type { Gflow, LogSink, ResolvedSettings, SettingKey, Surface } from '@gflow/core';
import type { JobLauncher } from '@gflow/core/surfaces';

/** What a command asks of the runtime factory. */
export interface RuntimeRequest {
  readonly surface: Surface;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Settings given as flags (`--profile` for servers, `--no-spend`, `--sandbox`, `-v`). */
  readonly flags: Partial<Record<SettingKey, unknown>>;
  /** False: the command never opens a browser (the app's sandbox then signs no profile in). */
  readonly browser?: false;
  /** The runtime of a background worker (`gflow worker run`): see core's CreateGflowOptions.worker. */
  readonly worker?: boolean;
  /**
   * How to start this binary again (`[process.execPath, <bin/gflow.js>]`): with it, a CLI
   * runtime hands --no-wait generations to a detached worker (backgroundFor). Without it (the
   * CLI used as a library) they run in the process's own background, as a library's do.
   */
  readonly workerCommand?: readonly string[];
  /** Where the runtime's log lines go (through the progress line on a terminal): core's CreateGflowOptions.logSink. */
  readonly logSink?: LogSink;
  /** The settings these options resolve to, when the caller has read them already (read once per start). */
  readonly settings?: ResolvedSettings;
}

/**
 * The background a CLI runtime hands its wait=false generations to: a detached worker, when the
 * binary says how to start itself and this runtime is neither a server nor a worker itself.
 */
export async function backgroundFor(request: RuntimeRequest, sandbox: boolean): Promise<JobLauncher | undefined> {
  if (request.surface !== 'cli' || request.worker === true || !request.workerCommand?.length) return undefined;
  const { createWorkerLauncher } = await import('./workerLauncher.js');
  return createWorkerLauncher({
    command: request.workerCommand,
    env: request.env,
    cwd: request.cwd,
    flags: request.flags,
    sandbox,
  });
}

/**
 * Creates the core runtime for a command. The app replaces it to add what
 * the CLI package may not import (the `--sandbox` simulator).
 */
export type RuntimeFactory = (request: RuntimeRequest) => Promise<Gflow>;

/**
 * The default factory: core's createGflow, loaded on first use so `--help` never pays for it, from
 * `@gflow/core/surfaces` (not the root, whose import loads every operation): the runtime loads
 * only the operations the command runs.
 */
export const defaultRuntimeFactory: RuntimeFactory = async (request) => {
  if (request.flags.sandbox === true) {
    throw new ConfigurationError('--sandbox needs the gflow app (it starts the built-in Flow simulator).', {
      remediationHint: 'Run the gflow binary (apps/app), not the @gflow/cli library, for --sandbox.',
    });
  }
  const { createGflow } = await import('@gflow/core/surfaces');
  const background = await backgroundFor(request, false);
  return createGflow({
    surface: request.surface,
    env: request.env,
    cwd: request.cwd,
    flags: request.flags,
    ...(request.worker ? { worker: true } : {}),
    ...(background ? { background } : {}),
    ...(request.logSink ? { logSink: request.logSink } : {}),
    ...(request.settings ? { settings: request.settings } : {}),
  });
};
