/** Public types of the simulator's scenario API. */

export type Cohort = 'classic' | 'agent_mode' | 'agent_only';
export type Tier = 'free' | 'pro' | 'ultra';
export type LatencySetting = 'fast' | 'realistic' | number;

/**
 * How long after status 3 a finished clip's signed URLs exist (flow-captures.md §4, measured 2–8 s):
 * `'scaled'` (the default) follows the latency setting like every other timing, never below a
 * second nor three page polls; `'measured'` keeps the measured 2–8 s at every latency setting.
 */
export type UrlDelay = 'measured' | 'scaled';
export type SimLocale = 'en-US' | 'de-DE' | 'vi-VN' | 'pt-BR';

/**
 * Failure switches (flow-wire §7.4). Each is documented in the README with how it shows up.
 */
export const FAILURE_NAMES = [
  'unusual_activity',
  'resource_exhausted',
  'unauthenticated',
  'invalid_argument',
  'internal_error',
  'mzza6b_null_status',
  'unknown_status',
  'done_without_url',
  'swapped_urls',
  'size_mismatch',
  'maseq_no_id',
  'maseq_http_400',
  'http_429',
  'http_403',
  'http_5xx',
  'dropped_download',
  'content_policy',
  'stuck_generation',
  'stuck_upload',
  'poll_other_clip_first',
  'late_index',
  'identity_recheck',
  'wrong_submit_body',
  'image_empty_reply',
  'maseq_project_id_first',
  'unreadable_submit_reply',
  'held_submit_reply',
  'brief_save_lossy',
  'agent_quote_more',
  'agent_second_confirm',
  'agent_unreadable_count',
  'agent_extra_results',
  'agent_no_result',
  'agent_only_loads',
  'no_cost_line',
  'held_sign_in',
] as const;
export type FailureName = (typeof FAILURE_NAMES)[number];

export interface FailureOptions {
  /** Limit to these rpc ids (HTTP and refusal switches); default: the submit rpcs. */
  rpcIds?: string[];
  /** HTTP status for http_5xx (default 503) or the status value for unknown_status (default 7). */
  status?: number;
  /** Retry-After seconds for http_429. */
  retryAfter?: number;
  /** Fire this many times, then switch off (default: until cleared). */
  times?: number;
  /** late_index: number of searches that do not list a fresh upload yet (default 2). */
  searches?: number;
}

export interface AccountInit {
  email: string;
  password?: string;
  displayName?: string;
  credits?: number;
  cohort?: Cohort;
  flowAccess?: boolean;
  tier?: Tier;
  /** Sign-in also signs in to labs.google (NextAuth cookie); default true. */
  labsSession?: boolean;
  /** The upload rights dialog was already accepted; default false. */
  uploadTermsAccepted?: boolean;
  /** Frames/@ picker commits on option click ('click') or needs "Add to prompt" ('confirm'). */
  pickerCommit?: 'click' | 'confirm';
  /** Google consent bar: none, reject/accept variant, or notice-only (accept). */
  consentBar?: 'none' | 'reject' | 'notice';
  /** Show a "Get started" dialog shortly after the editor loads. */
  promoDialog?: boolean;
  /** Offer "Veo 3.1 - Lite [Lower Priority]" and make it the default video model. */
  lowerPriority?: boolean;
}

export interface AccountView {
  email: string;
  displayName: string;
  credits: number;
  cohort: Cohort;
  flowAccess: boolean;
  tier: Tier;
  labsSession: boolean;
  uploadTermsAccepted: boolean;
  pickerCommit: 'click' | 'confirm';
  consentBar: 'none' | 'reject' | 'notice';
  promoDialog: boolean;
  lowerPriority: boolean;
}

export interface ReceivedRpc {
  /** Milliseconds since the simulator started. */
  at: number;
  email: string | null;
  rpcId: string;
  /** The rpcids query parameter as sent ('' when absent, as for nprQif). */
  rpcidsParam: string;
  sourcePath: string;
  /** The form-decoded f.req. */
  fReq: string;
  /** The inner JSON string of the first call. */
  inner: string;
  /** The raw request body (form-encoded). */
  rawBody: string;
  at_token: string;
  /** Credits charged by this call. */
  charged: number;
  /** HTTP status the simulator answered with. */
  httpStatus: number;
  /** How long the simulator held its reply (its own latency, scaled; 0 for an HTTP error). */
  replyDelayMs: number;
}

/** A Flow document the simulator served (a gallery or project page load, not a client-side hop). */
export interface ServedPage {
  /** Milliseconds since the simulator started. */
  at: number;
  email: string | null;
  /** The path served, e.g. `/project/<id>` (`/` is the gallery). */
  path: string;
}

export interface ProjectInit {
  title?: string;
  /** Instruction cards from bare texts, titled "Instruction 1", "Instruction 2", … */
  instructions?: string[];
}

export interface CharacterInit {
  displayName: string;
  personalityNotes?: string;
  voice?: string;
}
