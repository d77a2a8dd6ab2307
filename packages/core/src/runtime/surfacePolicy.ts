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
   * What it does with a queued background task nobody answers for (its worker stopped; issue 38):
   * `start-worker` (the CLI starts one, as --no-wait does), `run-here` (a server lives on and runs
   * it itself), `leave` (a library runs nothing it was not asked to; the next CLI or server does).
   */
  readonly strandedTasks: 'start-worker' | 'run-here' | 'leave';
}

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
    strandedTasks: 'leave',
  },
};
