import { ConfigurationError } from '@gflow/errors';

/** Upper bound of GFLOW_CLI_LEASE_WAIT_SECONDS (surfaces §5). */
export const MAX_LEASE_WAIT_SECONDS = 3600;
/**
 * The CLI waits in line for a busy profile (issue 38: four generations started together all
 * complete, one after another): as long as one generation may take (GFLOW_CLI_TIMEOUT_SECONDS'
 * default, 600 s, bounds every phase of a job from its session to its result), so a run queued
 * behind a video is not refused while that video is still legitimately running. Only an explicit
 * wait of 0 fails fast.
 */
export const CLI_DEFAULT_LEASE_WAIT_SECONDS = 600;
/** `mcp run` and `serve` queue behind another holder for up to three minutes by default. */
export const SERVER_DEFAULT_LEASE_WAIT_SECONDS = 180;
/** How often a waiting acquire retries the kernel lock. */
export const DEFAULT_LEASE_POLL_MS = 250;
/** Longest poll interval accepted, so a waiter never sleeps past a release for long. */
export const MAX_LEASE_POLL_MS = 5_000;
/** How often a holder that hands off looks for a waiter's wanted mark. */
export const DEFAULT_WANTED_POLL_MS = 250;
/**
 * How long an acquire that would fail fast (a wait shorter than this, the CLI's 0 s) still waits when
 * the holder is an idle warm server that hands off: its idle session gives way within about a second,
 * so a CLI run next to an idle `mcp run` succeeds instead of failing with "in use". A busy holder, or
 * one that does not hand off, is refused at once as before.
 */
export const DEFAULT_IDLE_HANDOFF_SECONDS = 5;
/** Upper bound of the idle hand-off grace. */
export const MAX_IDLE_HANDOFF_SECONDS = 60;

/** Which kind of process is acquiring: a one-shot CLI run or a long-lived server (`mcp run`, `serve`). */
export type LeaseSurface = 'cli' | 'server';

/**
 * Checks a lease wait in seconds (0–3600, finite). A bad value is a ConfigurationError (exit 11),
 * like any other bad setting. `name` is how the value is called in the message.
 */
export function validateLeaseWaitSeconds(value: number, name = 'waitSeconds'): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_LEASE_WAIT_SECONDS) {
    throw new ConfigurationError(
      `${name} must be a number of seconds from 0 to ${MAX_LEASE_WAIT_SECONDS}; got ${String(value)}.`,
      { extensions: { setting: name } },
    );
  }
  return value;
}

/**
 * The wait a surface uses: the value the user configured when there is one (validated),
 * otherwise 600 s for the CLI and 180 s for servers. The caller (core) reads the setting; this
 * package never looks at the environment.
 */
export function resolveLeaseWaitSeconds(surface: LeaseSurface, configured?: number): number {
  if (configured !== undefined) return validateLeaseWaitSeconds(configured);
  return surface === 'cli' ? CLI_DEFAULT_LEASE_WAIT_SECONDS : SERVER_DEFAULT_LEASE_WAIT_SECONDS;
}

/** Checks the idle hand-off grace in seconds (0–60; 0 turns it off). */
export function validateIdleHandoffSeconds(value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_IDLE_HANDOFF_SECONDS) {
    throw new ConfigurationError(
      `idleHandoffSeconds must be a number of seconds from 0 to ${MAX_IDLE_HANDOFF_SECONDS}; got ${String(value)}.`,
    );
  }
  return value;
}

/** Checks the poll interval of a waiting acquire (1–5000 ms). */
export function validatePollMs(value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 1 || value > MAX_LEASE_POLL_MS) {
    throw new ConfigurationError(`pollMs must be from 1 to ${MAX_LEASE_POLL_MS} ms; got ${String(value)}.`);
  }
  return value;
}
