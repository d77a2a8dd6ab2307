import type { ProgressEvent } from './progressPhases.js';
import type { RuntimeServices } from './runtimeServices.js';
import type { Surface } from './surfacePolicy.js';

/** What a handler gets: the runtime's services it may use, the surface it serves, its signal and progress. */
export interface OperationContext {
  /**
   * The services (catalog, sessions, limiter, …). @internal: they name the catalog's and the
   * driver's types, which the published declarations leave out.
   */
  readonly runtime: RuntimeServices;
  /** The surface the call came through; `SURFACE_POLICY[surface]` says what that implies. */
  readonly surface: Surface;
  readonly signal: AbortSignal;
  readonly onProgress?: (event: ProgressEvent) => void;
  /** The MCP tool name of the operation being run (incident bundles name it). */
  readonly operation?: string;
}
