import type { ProgressEvent } from './progressPhases.js';

/** What `gflow.run` takes besides the input: a signal that cancels the operation, a progress callback, and the throwing mode. */
export interface RunOptions {
  /** Cancels the operation; one already aborted resolves `cancelled` at once, before anything starts. */
  readonly signal?: AbortSignal;
  /**
   * Hears the operation's progress, in `PROGRESS_PHASES` order: a generation never reports an
   * earlier phase than one it reported (a heartbeat repeats the current one), and `done` once, last
   * (after its files are downloaded and recorded). A run of many steps reports each step's phases on
   * one scale (`step`) and says `done` once, at its end.
   */
  readonly onProgress?: (event: ProgressEvent) => void;
  /** This call's throwing mode, overriding the runtime's (`CreateGflowOptions.throwOnFailure`). */
  readonly throwOnFailure?: boolean;
}
