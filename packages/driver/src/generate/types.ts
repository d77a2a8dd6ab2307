import type { ImageAspect, ImageModelName, VideoAspect, VideoModelName } from '@gflow/flow-facts';
import type { DriverProgress } from '../session/opContext.js';

/**
 * A reference: a local file (uploaded under a run-unique name) or an existing Flow asset of the
 * project, attached in place by its display name — with, optionally, its verified local file to
 * upload instead when the picker does not list it (`fallbackPath`).
 */
export type ReferenceInput =
  | { readonly path: string; readonly displayName?: string }
  | { readonly mediaId: string; readonly displayName?: string; readonly fallbackPath?: string };

/**
 * A saved character of the project (flow-wire §5): attached as an `@` mention of its display name,
 * verified as a chip with `data-reference-type="entity"` and this `data-entity-id`.
 */
export interface CharacterInput {
  readonly entityId: string;
  readonly displayName: string;
}

/**
 * What Flow says a submit will cost, read right before the click that spends: the classic
 * settings pane's cost line (flow-wire §4), or the agent-only composer's credit confirmation.
 */
export interface SubmitQuote {
  /** The credits quoted; null when Flow showed none the driver could read (images quoted 0 say 0). */
  readonly credits: number | null;
  /** `cost-line` (classic pane), `agent-confirmation` (the agent's gate), `none` (an agent turn with no gate to come). */
  readonly source: 'cost-line' | 'agent-confirmation' | 'none';
  /** The balance the page shows (the header's credits control); null when unreadable. */
  readonly balance: number | null;
  /** The text the quote was read from (redacted, clipped), or null. */
  readonly text: string | null;
}

/** `submit`: click. `stop`: click nothing and return the quote (a dry run). */
export type SubmitDecision = 'submit' | 'stop';

/**
 * The caller's decision between reading the quote and the click (core's budgets and dry runs).
 * It may throw (a refusal): the driver then clicks nothing — on the agent route it rejects the
 * open confirmation — and the error propagates. The driver has no budget logic of its own.
 */
export type SubmitHook = (quote: SubmitQuote) => Promise<SubmitDecision>;

export interface GenerateImageRequest {
  readonly projectId?: string;
  /** With no projectId: the title the new project gets (through its header, once it is open). */
  readonly newProjectTitle?: string;
  readonly prompt: string;
  readonly model: ImageModelName;
  readonly aspect: ImageAspect;
  readonly count: number;
  readonly references?: readonly ReferenceInput[];
  readonly characters?: readonly CharacterInput[];
  readonly signal?: AbortSignal;
  readonly onProgress?: DriverProgress;
  /** Budget for the synchronous image reply (default 180 s). */
  readonly replyTimeoutMs?: number;
  /** "Confirm before generating" on an agent-only composer (GFLOW_CLI_AGENT_CONFIRM; default always). */
  readonly agentConfirm?: 'always' | 'never';
  /** Called once the composer is configured, with the quote, before the click that spends. */
  readonly beforeSubmit?: SubmitHook;
}

export interface GenerateVideoRequest {
  readonly mode: 't2v' | 'i2v' | 'r2v';
  readonly projectId?: string;
  /** With no projectId: the title the new project gets (through its header, once it is open). */
  readonly newProjectTitle?: string;
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
  readonly onProgress?: DriverProgress;
  /** The caller's overall budget from the submit click to terminal records. */
  readonly timeoutMs: number;
  /** "Confirm before generating" on an agent-only composer (GFLOW_CLI_AGENT_CONFIRM; default always). */
  readonly agentConfirm?: 'always' | 'never';
  /** Called once the composer is configured, with the quote, before the click that spends. */
  readonly beforeSubmit?: SubmitHook;
}

export interface GeneratedItem {
  readonly mediaId: string;
  /** The title Flow's library lists it by (what a later run searches the pickers for), when the reply names it. */
  readonly displayName?: string;
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
  /** The project's title as its page shows it (a new project's confirmed title), when the page shows one. */
  readonly projectTitle?: string;
  /** The saved characters attached to the submit (passed, or named by `@` in the prompt): entity id and name. */
  readonly characters?: ReadonlyArray<{ readonly entityId: string; readonly displayName: string }>;
  readonly items: readonly GeneratedItem[];
  readonly submitRpc: string;
  /** The submit's form-decoded body, redacted and clipped. */
  readonly submitBody: string;
  /** Local uploads made for this run: display name → media id. */
  readonly uploads: ReadonlyArray<{
    readonly displayName: string;
    readonly mediaId: string;
    readonly sourcePath?: string;
  }>;
  /** The submit reply was lost and the clip was found through the project's listing (#1112, #1141). */
  readonly recovered?: boolean;
  /** The composer that made it: the classic one, or the agent-only composer's chat agent. */
  readonly arm: 'classic' | 'agent-only';
  /** The credits the agent's confirmation quoted (agent-only runs that asked for one). */
  readonly agentQuotedCredits?: number;
  /** What was read before the click (absent when the run never reached that point). */
  readonly quote?: SubmitQuote;
  /**
   * The hook said `stop`: nothing was generated and `items` is empty. `before-submit`: nothing was
   * clicked; `agent-confirmation`: the agent's directive was sent and its confirmation rejected.
   */
  readonly stopped?: 'before-submit' | 'agent-confirmation';
}
