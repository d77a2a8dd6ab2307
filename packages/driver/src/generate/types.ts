import type { ImageAspect, ImageModelName, VideoAspect, VideoModelName } from '@gflow/flow-facts';
import type { DriverProgressEvent } from '../session/opContext.js';

/** A reference: a local file (uploaded under a run-unique name) or an existing Flow asset. */
export type ReferenceInput =
  | { readonly path: string; readonly displayName?: string }
  | { readonly mediaId: string; readonly displayName?: string };

/**
 * A saved character of the project (flow-wire §5): attached as an `@` mention of its display name,
 * verified as a chip with `data-reference-type="entity"` and this `data-entity-id`.
 */
export interface CharacterInput {
  readonly entityId: string;
  readonly displayName: string;
}

export interface GenerateImageRequest {
  readonly projectId?: string;
  readonly prompt: string;
  readonly model: ImageModelName;
  readonly aspect: ImageAspect;
  readonly count: number;
  readonly references?: readonly ReferenceInput[];
  readonly characters?: readonly CharacterInput[];
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: DriverProgressEvent) => void;
  /** Budget for the synchronous image reply (default 180 s). */
  readonly replyTimeoutMs?: number;
  /** "Confirm before generating" on an agent-only composer (GFLOW_CLI_AGENT_CONFIRM; default always). */
  readonly agentConfirm?: 'always' | 'never';
}

export interface GenerateVideoRequest {
  readonly mode: 't2v' | 'i2v' | 'r2v';
  readonly projectId?: string;
  readonly prompt: string;
  readonly model?: VideoModelName;
  readonly duration?: number;
  readonly resolution?: '360p' | '720p';
  readonly aspect: VideoAspect;
  readonly count: number;
  readonly startFrame?: ReferenceInput;
  readonly endFrame?: ReferenceInput;
  readonly references?: readonly ReferenceInput[];
  /** Saved characters (r2v only). */
  readonly characters?: readonly CharacterInput[];
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: DriverProgressEvent) => void;
  /** The caller's overall budget from the submit click to terminal records. */
  readonly timeoutMs: number;
  /** "Confirm before generating" on an agent-only composer (GFLOW_CLI_AGENT_CONFIRM; default always). */
  readonly agentConfirm?: 'always' | 'never';
}

export interface GeneratedItem {
  readonly mediaId: string;
  /** Null where the page never names one (the agent-only composer's results). */
  readonly workflowId: string | null;
  readonly seed?: number;
  readonly prompt: string;
  readonly modelKey: string;
  /** The signed media URL (mp4 for video). */
  readonly url: string;
  readonly width?: number;
  readonly height?: number;
  /** Video: the poster JPEG URL (tried as the mp4 if the slots are swapped). */
  readonly posterUrl?: string;
  readonly byteSize?: number;
}

export interface FlowGenerationResult {
  readonly projectId: string;
  readonly items: readonly GeneratedItem[];
  readonly submitRpc: string;
  /** The submit's form-decoded body, redacted and clipped. */
  readonly submitBody: string;
  /** Local uploads made for this run: display name → media id. */
  readonly uploads: ReadonlyArray<{ readonly displayName: string; readonly mediaId: string }>;
  /** The submit reply was lost and the clip was found through the project's listing (#1112, #1141). */
  readonly recovered?: boolean;
  /** The composer that made it: the classic one, or the agent-only composer's chat agent. */
  readonly arm: 'classic' | 'agent-only';
  /** The credits the agent's confirmation quoted (agent-only runs that asked for one). */
  readonly agentQuotedCredits?: number;
}
