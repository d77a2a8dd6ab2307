import type { Gflow, ProgressEvent, SettingKey, Surface } from '@gflow/core';
import { UsageError } from '@gflow/errors';
import type { CliIo } from '../cliIo.js';
import type { ProgressReporter } from '../output/progressReporter.js';
import type { RuntimeFactory } from './runtimeFactory.js';

/** What a leaf command gets to do its work. */
export interface LeafContext {
  readonly io: CliIo;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** `--json`: one JSON document on stdout. */
  readonly json: boolean;
  /** Aborted on Ctrl-C. */
  readonly signal: AbortSignal;
  /** `data list`, `mcp setup`, … */
  readonly commandPath: string;
  readonly version: string;
  /**
   * The core runtime, created on first use with the command's setting flags,
   * with the catalog's code loaded (servers start with it ready). Leaves that
   * only run operations pass `{ loadCatalog: false }`: `gflow.run` loads the
   * catalog itself when the operation needs it (static reads never do).
   * `{ browser: false }` (on the first call) says the command never opens a
   * browser: a sandbox runtime then signs no profile in (RuntimeRequest.browser).
   */
  gflow(options?: { readonly loadCatalog?: boolean; readonly browser?: false }): Promise<Gflow>;
  /** Settings to pass as flags (e.g. `mcp run --no-spend`); call before gflow(). */
  setSettingFlag(key: SettingKey, value: unknown): void;
  /** The runtime, if one was created. */
  readonly existingGflow: Gflow | undefined;
  /** The profile recorded with the usage event. */
  usageProfile: string | undefined;
  readonly progress: ProgressReporter;
  onProgress(event: ProgressEvent): void;
  /** Asks a yes/no question on the terminal; refuses (UsageError) when there is no terminal. */
  confirm(question: string, refusal: string): Promise<boolean>;
  /** The running Node against the binary's supported range, when the binary says. */
  readonly node: NodeRuntime | undefined;
}

/** The running Node and the range the binary supports (its engines.node). */
export interface NodeRuntime {
  readonly version: string;
  readonly range: string;
  readonly supported: boolean;
}

export interface LeafContextOptions {
  readonly io: CliIo;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly json: boolean;
  readonly signal: AbortSignal;
  readonly commandPath: string;
  readonly version: string;
  readonly surface: Surface;
  readonly settingFlags: Partial<Record<SettingKey, unknown>>;
  readonly runtimeFactory: RuntimeFactory;
  readonly progress: ProgressReporter;
  readonly node?: NodeRuntime | undefined;
  /** The leaf's runtime is a background worker's (LeafSpec.worker). */
  readonly worker?: boolean;
  /** How to start this binary again, for --no-wait's detached worker (RunCliOptions.workerCommand). */
  readonly workerCommand?: readonly string[] | undefined;
}

export function createLeafContext(options: LeafContextOptions): LeafContext {
  const flags: Partial<Record<SettingKey, unknown>> = { ...options.settingFlags };
  let runtime: Gflow | undefined;
  let pending: Promise<Gflow> | undefined;
  const ctx: LeafContext = {
    io: options.io,
    env: options.env,
    cwd: options.cwd,
    json: options.json,
    signal: options.signal,
    commandPath: options.commandPath,
    version: options.version,
    usageProfile: undefined,
    progress: options.progress,
    node: options.node,
    get existingGflow() {
      return runtime;
    },
    setSettingFlag(key, value) {
      if (pending) throw new Error('setSettingFlag after the runtime was created');
      flags[key] = value;
    },
    async gflow(request) {
      pending ??= options
        .runtimeFactory({
          surface: options.surface,
          env: options.env,
          cwd: options.cwd,
          flags,
          ...(request?.browser === false ? { browser: false as const } : {}),
          ...(options.worker ? { worker: true } : {}),
          ...(options.workerCommand ? { workerCommand: options.workerCommand } : {}),
          logSink: { write: (line) => options.progress.print(line), isTTY: options.io.stderr.isTTY === true },
        })
        .then((g) => (runtime = g));
      const gflow = await pending;
      return request?.loadCatalog === false ? gflow : gflow.ready();
    },
    onProgress(event) {
      options.progress.update(event);
    },
    async confirm(question, refusal) {
      if (!options.io.stdinIsTTY || !options.io.readLine) throw new UsageError(refusal);
      const answer = await options.io.readLine(`${question} [y/N] `);
      return /^y(es)?$/i.test((answer ?? '').trim());
    },
  };
  return ctx;
}
