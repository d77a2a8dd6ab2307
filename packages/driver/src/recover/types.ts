import type { DriverProgress } from '../session/opContext.js';

/**
 * Media a submit already created, by its ids (from the submit reply or a run's checkpoint), to be
 * followed to a state it can be downloaded in. Spends nothing.
 */
export interface FollowMediaRequest {
  readonly projectId: string;
  readonly kind: 'image' | 'video';
  /** From the submit reply or the checkpoint. */
  readonly mediaIds: readonly string[];
  /** When known (videos); else read from the project's records. */
  readonly workflowIds?: readonly string[];
  /** The prompt as sent (fills each item's `prompt`). */
  readonly prompt: string;
  /** How long a clip still generating (or an image still pending) is waited for. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: DriverProgress;
}

/**
 * A submit whose reply was never read (its ids are unknown), to be found in its project's listing.
 * Spends nothing.
 */
export interface FindSubmittedRequest {
  readonly projectId: string;
  readonly kind: 'image' | 'video';
  /** How many results the submit asked for. */
  readonly count: number;
  /** Media of this project the caller already knows: never adopted. */
  readonly knownMediaIds: readonly string[];
  /** The prompt as sent: video records carry it (the lookup narrows by it); image tiles may not. */
  readonly prompt: string;
  /** When the submit was clicked (ms since the epoch); a few seconds of clock slack are allowed. */
  readonly since: number;
  /** How long pending items are waited for. */
  readonly timeoutMs: number;
  /**
   * How long after the click Flow may still be making what was submitted before it lists it (a
   * policy over measured times: LISTED_WITHIN_MS by default); until then "nothing new" is no answer.
   */
  readonly listedWithinMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * What the project lists for a submit whose reply was never read. `found`: exactly `count` new
 * media (finished or still pending, once their ids are known). `none`: nothing new once the page
 * loaded, its pending items settled and the submit is old enough that Flow would list what it made.
 * `ambiguous`: more new media than `count`, or fewer but some — a person must decide.
 */
export type SubmittedLookup =
  | { readonly kind: 'found'; readonly mediaIds: string[]; readonly workflowIds: string[] }
  | { readonly kind: 'none' }
  | { readonly kind: 'ambiguous'; readonly mediaIds: string[] };
