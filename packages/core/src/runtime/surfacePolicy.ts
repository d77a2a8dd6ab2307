/** Where a runtime serves: the CLI, an MCP server (`gflow mcp run`), the HTTP daemon (`gflow serve`), or a program's own code. */
export type Surface = 'cli' | 'mcp' | 'http' | 'library';

/** What a surface implies, decided once here instead of `surface === 'mcp' || surface === 'http'` at each use. */
export interface SurfacePolicy {
  /**
   * `output` / `out_dir` must resolve inside the output directory (no `..`, absolute or symlink
   * escape): the caller is an agent or a remote client. The CLI and a library write where told.
   */
  readonly confineOutput: boolean;
  /** Spending calls draw on the token bucket (8 tokens, 1 per 20 s) and answer `rate_limited` when it is empty. */
  readonly rateLimit: boolean;
  /** The default wait for a busy profile's cross-process lease: `cli` waits in line (600 s), `server` 180 s; an explicit 0 fails fast. */
  readonly leaseWait: 'cli' | 'server';
  /** Browser sessions stay warm between calls (released after an idle period, or handed over). */
  readonly keepWarm: boolean;
  /** Usage lines are batched in memory and written once a second, instead of one write per call. */
  readonly batchUsage: boolean;
  /** How the surface names what it ran on a task row: the CLI's command (`image t2i`) or the MCP tool (`gflow_generate_image`). */
  readonly names: 'command' | 'tool';
  /** How a lease holder of this surface is named in other processes' messages ("gflow mcp run, pid 1234"). */
  readonly leaseHolder: string;
  /**
   * How long one call may wait on a task (`waitTask`, `cancelTask` waiting for a stop), and what it
   * answers when that bound passes. A script on the CLI or in a library waits as long as it asks
   * and hears a timeout as an error (exit 9). An agent's MCP client has a tool timeout of its own,
   * often 60 s, so a server bounds each wait below it (50 s) and answers the task's progress so far:
   * the agent calls again.
   */
  readonly taskWait: { readonly boundSeconds: number | null; readonly onBound: 'error' | 'progress' };
  /**
   * When the runtime's warm-up (the sandbox's sign-in) happens: `before` it is handed over (a
   * command or a program then runs on a ready runtime, and a failed sign-in fails the opening), or
   * in the `background` — a server answers its client's `initialize` at once (a client's connect
   * timeout, 15 s in the MCP Inspector, is shorter than a first sign-in) and its first call waits.
   */
  readonly warmUp: 'before' | 'background';
  /**
   * What it does with a queued background task nobody answers for (its worker stopped; issue 38):
   * `start-worker` (the CLI starts one, as --no-wait does), `run-here` (a server lives on and runs
   * it itself), `leave` (a library runs nothing it was not asked to; the next CLI or server does).
   */
  readonly strandedTasks: 'start-worker' | 'run-here' | 'leave';
}

/** The longest one MCP or HTTP call waits on a task: under the 60 s tool timeout many MCP clients keep. */
export const SERVER_TASK_WAIT_SECONDS = 50;

/** The one table of per-surface behaviour. */
export const SURFACE_POLICY: Readonly<Record<Surface, SurfacePolicy>> = {
  cli: {
    confineOutput: false,
    rateLimit: false,
    leaseWait: 'cli',
    keepWarm: false,
    batchUsage: false,
    names: 'command',
    leaseHolder: 'CLI',
    taskWait: { boundSeconds: null, onBound: 'error' },
    warmUp: 'before',
    strandedTasks: 'start-worker',
  },
  mcp: {
    confineOutput: true,
    rateLimit: true,
    leaseWait: 'server',
    keepWarm: true,
    batchUsage: true,
    names: 'tool',
    leaseHolder: 'mcp run',
    taskWait: { boundSeconds: SERVER_TASK_WAIT_SECONDS, onBound: 'progress' },
    warmUp: 'background',
    strandedTasks: 'run-here',
  },
  http: {
    confineOutput: true,
    rateLimit: true,
    leaseWait: 'server',
    keepWarm: true,
    batchUsage: true,
    names: 'tool',
    leaseHolder: 'serve',
    taskWait: { boundSeconds: SERVER_TASK_WAIT_SECONDS, onBound: 'progress' },
    warmUp: 'background',
    strandedTasks: 'run-here',
  },
  library: {
    confineOutput: false,
    rateLimit: false,
    leaseWait: 'cli',
    keepWarm: false,
    batchUsage: true,
    names: 'tool',
    leaseHolder: 'library',
    taskWait: { boundSeconds: null, onBound: 'error' },
    warmUp: 'before',
    strandedTasks: 'leave',
  },
};
