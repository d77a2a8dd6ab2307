import type { VideoModelName } from '@gflow/flow-facts';
import type { DriverProgress } from '../session/opContext.js';
import type { FlowGenerationResult, SubmitHook } from '../generate/types.js';

/** The clip an extension continues: a finished video of the project. */
export interface ExtendSource {
  /** Its media id: how gflow finds its grid tile (never what the submit carries). */
  readonly mediaId: string;
  /**
   * Its workflow id: what `fZytfe`'s source slot must carry (flow-captures.md §10; a media id
   * there is billed and never scheduled). Results, the catalog (`assets.flow_workflow_id`) and
   * `findMediaUrl` / `downloadMediaById` name it.
   */
  readonly workflowId: string;
  /** Its length in whole seconds (the catalog's `duration_seconds`): the frame window is its last second at 24 fps. */
  readonly durationSeconds: number;
}

export interface ExtendVideoRequest {
  /** The Flow project holding the source clip. */
  readonly projectId: string;
  readonly source: ExtendSource;
  readonly prompt: string;
  /** The model of the extend entry to pick (a Veo 3.1 model; default Veo 3.1 - Lite, the one captured). */
  readonly model?: VideoModelName;
  readonly signal?: AbortSignal;
  readonly onProgress?: DriverProgress;
  /** The caller's overall budget from the submit click to the finished extension. */
  readonly timeoutMs: number;
  /** Called once the prompt is typed, with the quote the page shows, before the click that spends. */
  readonly beforeSubmit?: SubmitHook;
}

/**
 * An extension: a FlowGenerationResult with one item (the new clip: media id, workflow id, signed
 * URL, byte size, model key), plus the scene it was made in, its source and the frame window sent.
 * `stopped: 'before-submit'` (the hook said stop): no item, nothing spent.
 */
export interface FlowExtensionResult extends FlowGenerationResult {
  /** The scene the extension was made in (`/project/<pid>/scene/<sceneId>`). */
  readonly sceneId: string;
  readonly source: ExtendSource;
  /** The frame window the submit carried: the source's last second, `[d·24 − 23, d·24]`. */
  readonly frameWindow: readonly [number, number];
}
