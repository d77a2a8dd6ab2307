import type { ProgressEvent } from './progressPhases.js';

/** What `gflow.run` takes besides the input: a signal that cancels the operation, a progress callback, and the throwing mode. */
export interface RunOptions {
  /** Cancels the operation; one already aborted resolves `cancelled` at once, before anything starts. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: ProgressEvent) => void;
  /** This call's throwing mode, overriding the runtime's (`CreateGflowOptions.throwOnFailure`). */
  readonly throwOnFailure?: boolean;
}
