/**
 * The error taxonomy as data: one row per error code. Everything else — the
 * classes, exit codes, HTTP statuses, problem details, retryability — is
 * derived from this table. A row without its own `exit`, `status` or
 * `retryable` inherits its parent's (most specific wins).
 */
export interface ErrorRow {
  /** The class name users see in messages, e.g. `[AuthExpiredError] …`. */
  readonly className: string;
  /** The parent code; `gflow` is the root. */
  readonly parent: string | null;
  readonly title: string;
  /** Process exit code for the CLI (0–42, 130). Inherited when absent. */
  readonly exit?: number;
  /** HTTP status (problem details `status`). Inherited when absent. */
  readonly status?: number;
  /** Whether a scheduler may re-run the same request. Inherited when absent. */
  readonly retryable?: boolean;
  /** Default remediation hint (inherited when absent; the root has one, so every code does). */
  readonly hint?: string;
}

const LOGIN = "Run 'gflow auth login' in your local terminal.";

/**
 * The taxonomy: one row per code (class name, parent, title, exit code, HTTP status, retryable,
 * hint); a row without its own exit, status, retryable or hint inherits its parent's.
 */
export const ERROR_TABLE = {
  gflow: {
    className: 'GflowError',
    parent: null,
    title: 'gflow error',
    exit: 1,
    status: 500,
    retryable: false,
    hint: 'Read the detail for what went wrong; if it does not say what to change, file an issue with it.',
  },
  unknown: {
    className: 'UnknownError',
    parent: 'gflow',
    title: 'Unexpected Error',
    exit: 1,
    status: 500,
    hint: 'Read the server-side log; the real error text is there, not in this envelope.',
  },
  cancelled: {
    className: 'CancelledError',
    parent: 'gflow',
    title: 'Cancelled',
    exit: 130,
    status: 499,
    hint: 'The operation was cancelled. If it was cancelled after submit, check the Flow project before retrying: credits may have been spent.',
  },
  usage: {
    className: 'UsageError',
    parent: 'gflow',
    title: 'Usage Error',
    exit: 2,
    status: 400,
    hint: "Run the command with '--help' to see its arguments.",
  },
  'bad-parameter': {
    className: 'BadParameterError',
    parent: 'usage',
    title: 'Bad Parameter',
    hint: 'Fix the parameter named in the detail and call again; nothing was sent to Flow.',
  },
  'invalid-output': {
    className: 'InvalidOutputError',
    parent: 'bad-parameter',
    title: 'Invalid Output',
    hint: 'Name a file inside the output directory (GFLOW_CLI_OUTPUT_DIR), not a directory or a path outside it.',
  },
  'no-profile': { className: 'NoProfileError', parent: 'usage', title: 'No Profile', hint: LOGIN },
  'no-default-profile': {
    className: 'NoDefaultProfileError',
    parent: 'usage',
    title: 'No Default Profile',
    hint: "Pass a profile name, set GFLOW_CLI_PROFILE, or run 'gflow auth use NAME'.",
  },
  'reference-not-usable': {
    className: 'ReferenceNotUsableError',
    parent: 'usage',
    title: 'Reference Not Usable',
    hint: 'Re-generate the asset or pass a local file path instead of its media id.',
  },
  'reference-not-on-disk': {
    className: 'ReferenceNotOnDiskError',
    parent: 'usage',
    title: 'Reference Not On Disk',
    hint: 'Download the asset again (gflow data download) or pass a local file path.',
  },
  'api-error': {
    className: 'FlowApiError',
    parent: 'gflow',
    title: 'Flow API Error',
    exit: 1,
    status: 502,
    hint: 'Flow refused the request; the detail says how. Do not retry it unchanged.',
  },
  'auth-expired': {
    className: 'AuthExpiredError',
    parent: 'api-error',
    title: 'Authentication Expired',
    exit: 3,
    status: 401,
    hint: LOGIN,
  },
  'aisandbox-auth': {
    className: 'AisandboxAuthError',
    parent: 'auth-expired',
    title: 'Flow Session Rejected',
    hint: LOGIN,
  },
  'rate-limit': {
    className: 'RateLimitError',
    parent: 'api-error',
    title: 'Rate Limited',
    exit: 4,
    status: 429,
    retryable: true,
    hint: 'Flow is limiting requests from this account: wait (retry_after seconds when given), then retry once.',
  },
  'content-policy': {
    className: 'ContentPolicyError',
    parent: 'api-error',
    title: 'Content Policy Refusal',
    exit: 5,
    status: 422,
    hint: 'Rephrase the prompt or change the references; retrying the same request fails the same way.',
  },
  network: {
    className: 'NetworkError',
    parent: 'api-error',
    title: 'Network Error',
    exit: 6,
    status: 503,
    retryable: true,
    hint: 'Check the connection and retry.',
  },
  'media-download': {
    className: 'MediaDownloadError',
    parent: 'network',
    title: 'Media Download Failed',
    retryable: false,
    status: 502,
    hint: 'The media exists and was billed: recover it with gflow_download_media (gflow data download MEDIA_ID), which spends nothing.',
  },
  'wire-format': {
    className: 'WireFormatError',
    parent: 'api-error',
    title: 'Unexpected Response Shape',
    exit: 7,
    status: 502,
    hint: 'Flow answered in a shape gflow does not know; file an issue with the detail.',
  },
  'scene-concat': {
    className: 'SceneConcatError',
    parent: 'api-error',
    title: 'Scene Concatenation Failed',
    exit: 19,
    hint: 'The clips were made; fetch them one by one (gflow data download MEDIA_ID) and join them locally.',
  },
  'auth-missing': {
    className: 'AuthMissingError',
    parent: 'gflow',
    title: 'No Flow Session',
    exit: 8,
    status: 401,
    hint: LOGIN,
  },
  'transport-timeout': {
    className: 'TransportTimeoutError',
    parent: 'gflow',
    title: 'Operation Timed Out',
    exit: 9,
    status: 504,
    retryable: true,
    hint: 'Retry; if it timed out after submit, check the Flow project first: credits may have been spent.',
  },
  'waf-rejection': {
    className: 'WafRejectionError',
    parent: 'gflow',
    title: 'Request Rejected By Flow',
    exit: 10,
    status: 403,
    retryable: true,
    hint: 'Flow flagged unusual activity; pause for a while, then retry once.',
  },
  configuration: {
    className: 'ConfigurationError',
    parent: 'gflow',
    title: 'Configuration Error',
    exit: 11,
    status: 400,
    hint: 'Change what the detail names — a setting (docs/CONFIGURATION.md), or a request Flow cannot honour here — and call again.',
  },
  'profile-locked': {
    className: 'ProfileLockedError',
    parent: 'configuration',
    title: 'Profile In Use',
    status: 409,
    hint: 'Another gflow process is using this profile; wait for it to finish or raise GFLOW_CLI_LEASE_WAIT_SECONDS.',
  },
  'output-not-writable': {
    className: 'OutputNotWritableError',
    parent: 'configuration',
    title: 'Output Not Writable',
    hint: 'Choose an output path you can write: its directory must exist or be creatable, and be writable. Nothing was sent to Flow.',
  },
  'output-write-failed': {
    className: 'OutputWriteFailedError',
    parent: 'configuration',
    title: 'Output Write Failed',
    status: 500,
    hint: 'The media was made (and billed) in Flow: recover it with gflow data download MEDIA_ID --out DIR (gflow_download_media), which spends nothing.',
  },
  'chain-manifest': { className: 'ChainManifestError', parent: 'configuration', title: 'Invalid Chain Manifest' },
  'profile-engine-downgrade': {
    className: 'ProfileEngineDowngradeError',
    parent: 'configuration',
    title: 'Browser Downgrade Refused',
    hint: 'The profile was last used by a newer browser; use that browser or a fresh profile.',
  },
  'browser-engine-unavailable': {
    className: 'BrowserEngineUnavailableError',
    parent: 'configuration',
    title: 'Browser Unavailable',
    exit: 24,
    hint: 'Install Chrome or Chromium, or set GFLOW_CLI_BROWSER_EXECUTABLE.',
  },
  'model-mode-incompatibility': {
    className: 'ModelModeIncompatibilityError',
    parent: 'configuration',
    title: 'Model Cannot Do This Mode',
    exit: 17,
    hint: "Pick a model that supports the mode; see 'gflow models'.",
  },
  'video-model-selection': {
    className: 'VideoModelSelectionError',
    parent: 'configuration',
    title: 'Video Model Not Selectable',
    exit: 18,
  },
  'auth-login-timeout': {
    className: 'AuthLoginTimeoutError',
    parent: 'gflow',
    title: 'Login Timed Out',
    exit: 12,
    status: 408,
    hint: 'Run gflow auth login again and finish signing in before the timeout (GFLOW_CLI_AUTH_LOGIN_TIMEOUT).',
  },
  security: {
    className: 'SecurityError',
    parent: 'gflow',
    title: 'Security Boundary',
    exit: 13,
    status: 403,
    hint: 'Profiles are plain names and outputs stay inside the output directory.',
  },
  'auth-browser-rejected': {
    className: 'AuthBrowserRejectedError',
    parent: 'gflow',
    title: 'Login Browser Rejected',
    exit: 14,
    status: 403,
    hint: 'Google refused this browser for sign-in; use --browser chrome.',
  },
  'browser-session-closed': {
    className: 'BrowserSessionClosedError',
    parent: 'gflow',
    title: 'Browser Closed',
    exit: 15,
    status: 503,
    retryable: true,
    hint: 'The browser closed mid-run; retry.',
  },
  'data-store': {
    className: 'DataStoreError',
    parent: 'gflow',
    title: 'Catalog Error',
    exit: 16,
    status: 500,
    hint: 'Check GFLOW_CLI_DB_PATH; gflow never overwrites a database it cannot read.',
  },
  'data-migration': {
    className: 'DataMigrationError',
    parent: 'data-store',
    title: 'Catalog Migration Refused',
    hint: 'The catalog was written by another gflow version; upgrade gflow or point GFLOW_CLI_DB_PATH elsewhere.',
  },
  'data-integrity': { className: 'DataIntegrityError', parent: 'data-store', title: 'Catalog Integrity Error' },
  'catalog-busy': {
    className: 'CatalogBusyError',
    parent: 'data-store',
    title: 'Catalog Busy',
    exit: 42,
    status: 503,
    retryable: true,
    hint: 'Another process is writing to the catalog (gflow.db) and held it longer than gflow waits (GFLOW_CLI_CATALOG_BUSY_SECONDS). Nothing was changed; the catalog is fine. Retry once that process is done.',
  },
  'frame-extraction': {
    className: 'FrameExtractionError',
    parent: 'gflow',
    title: 'Frame Extraction Failed',
    exit: 20,
    hint: 'The clip was made; fetch it (gflow data download MEDIA_ID) and take the frame from the file, or pass an image as the frame.',
  },
  'chain-partial': {
    className: 'ChainPartialError',
    parent: 'gflow',
    title: 'Chain Stopped Partway',
    exit: 21,
    hint: 'The links made so far are kept; resume the chain from where it stopped (resume_from / --resume).',
  },
  'upscale-unavailable': {
    className: 'UpscaleUnavailableError',
    parent: 'gflow',
    title: 'Upscale Unavailable',
    exit: 22,
    status: 403,
    hint: '4K upscale needs a Google AI Ultra plan; try 2k.',
  },
  'ui-selector-drift': {
    className: 'UiSelectorDriftError',
    parent: 'gflow',
    title: 'Flow Page Changed',
    exit: 23,
    status: 502,
    hint: 'Flow changed its page; file an issue with the verbatim detail.',
  },
  'flow-agent-ui': {
    className: 'FlowAgentUiError',
    parent: 'gflow',
    title: 'Flow Agent UI',
    exit: 25,
    status: 409,
    retryable: true,
    hint: "Flow's agent did not do what was asked this time; retry once, or generate from the Flow web UI.",
  },
  'media-attribution': {
    className: 'MediaAttributionError',
    parent: 'gflow',
    title: 'Media Not Attributable',
    exit: 26,
    status: 502,
    hint: 'The media may exist in the Flow project; check the project before generating again: credits may have been spent.',
  },
  'media-upload-rejected': {
    className: 'MediaUploadRejectedError',
    parent: 'gflow',
    title: 'Upload Rejected',
    exit: 27,
    status: 422,
    hint: 'Open the project on flow.google.com, upload any image by hand and accept the rights dialog once.',
  },
  'ui-mode-unavailable': {
    className: 'UiModeUnavailableError',
    parent: 'gflow',
    title: 'UI Mode Unavailable',
    exit: 28,
    status: 409,
    retryable: true,
    hint: 'The requested Flow UI arm is not available on this account right now; nothing was spent.',
  },
  'mention-index-unavailable': {
    className: 'MentionIndexUnavailableError',
    parent: 'gflow',
    title: 'Mention Index Unavailable',
    exit: 29,
    status: 502,
    hint: "Flow's @ picker did not list the asset yet: attach it as a reference image file instead (Flow's index may list it later).",
  },
  'queue-schema': {
    className: 'QueueSchemaError',
    parent: 'gflow',
    title: 'Queue Payload Schema',
    exit: 30,
    status: 500,
    hint: 'The task was written by another gflow version; finish it with that version, or cancel it (gflow task cancel ID).',
  },
  'flow-app': {
    className: 'FlowAppError',
    parent: 'gflow',
    title: 'Flow App Error',
    exit: 31,
    status: 502,
    retryable: true,
    hint: "Flow's app did not do what gflow asked; open the project on flow.google.com with this profile to see its state, then retry once.",
  },
  'reference-not-found': {
    className: 'ReferenceNotFoundError',
    parent: 'gflow',
    title: 'Reference Not Found',
    exit: 32,
    status: 404,
    hint: 'Use a media id from the local catalog (gflow data list images) or a local file path.',
  },
  'doctor-findings': {
    className: 'DoctorFindingsError',
    parent: 'gflow',
    title: 'Doctor Found Issues',
    exit: 33,
    status: 500,
    hint: 'Run gflow doctor and follow the fix each finding names.',
  },
  'sync-partial': {
    className: 'SyncPartialError',
    parent: 'gflow',
    title: 'Sync Partial',
    exit: 34,
    status: 207,
    retryable: true,
    hint: 'Part of the sync went through; run it again to finish the rest.',
  },
  'extend-unavailable': {
    className: 'ExtendUnavailableError',
    parent: 'gflow',
    title: 'Extend Unavailable',
    exit: 35,
    status: 403,
    retryable: false,
    hint: 'Flow does not offer extending this clip; make a new clip from its last frame (image-to-video) instead.',
  },
  'flow-host-migrated': {
    className: 'FlowHostMigratedError',
    parent: 'gflow',
    title: 'Not Supported On flow.google.com',
    exit: 36,
    status: 501,
    retryable: false,
    hint: 'See docs/CONFIGURATION.md § GFLOW_CLI_FLOW_HOST for what flow.google.com serves.',
  },
  'insufficient-credits': {
    className: 'InsufficientCreditsError',
    parent: 'gflow',
    title: 'Insufficient Credits',
    exit: 37,
    status: 402,
    hint: 'Top up Flow credits or pick a cheaper model.',
  },
  'flow-account-chooser': {
    className: 'FlowAccountChooserError',
    parent: 'gflow',
    title: 'Account Mismatch',
    exit: 38,
    status: 409,
    retryable: false,
    hint: 'Sign in with the account named by --account, or drop --account.',
  },
  'flow-access-unavailable': {
    className: 'FlowAccessUnavailableError',
    parent: 'gflow',
    title: 'No Flow Access',
    exit: 39,
    status: 403,
    retryable: false,
    hint: 'This Google account cannot reach Flow: it needs a Google AI Plus/Pro/Ultra or qualifying Workspace plan (https://flow.google.com). Only the account owner can fix this; do not retry.',
  },
  'budget-exceeded': {
    className: 'BudgetExceededError',
    parent: 'gflow',
    title: 'Budget Exceeded',
    exit: 40,
    status: 402,
    retryable: false,
    hint: 'A credit budget (GFLOW_CLI_MAX_CREDITS_PER_CALL, --max-credits / max_credits, GFLOW_CLI_DAILY_CREDIT_BUDGET) refused this submit before the click; nothing was sent or spent. Raise the budget, pick a cheaper model, or wait for tomorrow.',
  },
  'flow-drift': {
    className: 'FlowDriftError',
    parent: 'gflow',
    title: 'Flow Changed Under gflow',
    exit: 41,
    status: 409,
    retryable: false,
    hint: 'A control or reply gflow depends on is not what it expects (gflow doctor --live names it); paid runs may fail there. Update gflow, or file an issue with the redacted capture bundle (gflow doctor --live --capture DIR).',
  },
  'recaptcha-mint': {
    className: 'RecaptchaError',
    parent: 'gflow',
    title: 'reCAPTCHA Failed',
    exit: 1,
    status: 503,
    hint: 'Flow did not accept the browser this time; open the project in Chrome with this profile, then try again later.',
  },
  'batch-partial': {
    className: 'BatchPartialError',
    parent: 'gflow',
    title: 'Batch Partial',
    exit: 1,
    status: 207,
    hint: 'Some items were made and kept; each failed item carries its own error. Re-run only those.',
  },
  'batch-integrity': {
    className: 'BatchIntegrityError',
    parent: 'gflow',
    title: 'Batch Integrity',
    exit: 1,
    hint: 'Fix the batch file the detail names (one prompt per row, the documented columns) and run it again.',
  },
  'profile-marker-missing': {
    className: 'ProfileMarkerMissingError',
    parent: 'gflow',
    title: 'Profile Marker Missing',
    exit: 1,
    status: 409,
    hint: "Re-run 'gflow auth login --browser chrome' for this profile.",
  },
  'cookie-store-unreadable': {
    className: 'CookieStoreUnreadableError',
    parent: 'gflow',
    title: 'Cookie Store Unreadable',
    exit: 1,
    status: 409,
    hint: "Close any Chrome window using this profile, then re-run 'gflow auth login' for it.",
  },
  'verification-error': {
    className: 'VerificationError',
    parent: 'gflow',
    title: 'Session Verification Failed',
    exit: 1,
    status: 503,
    retryable: true,
    hint: 'A network or endpoint problem; re-login does not fix it. Retry later.',
  },
  'daemon-recovery': {
    className: 'DaemonRecoveryError',
    parent: 'gflow',
    title: 'Interrupted By Restart',
    exit: 1,
    status: 500,
    hint: 'The process running this job stopped; check the Flow project before retrying: credits may have been spent.',
  },
} as const satisfies Record<string, ErrorRow>;

/** A code of `ERROR_TABLE` (`bad-parameter`, `rate-limit`, …): what `hasErrorCode` checks and a problem's `type` ends with. */
export type ErrorCode = keyof typeof ERROR_TABLE;

/** Every code of `ERROR_TABLE`, the root `gflow` first. */
export const ERROR_CODES = Object.keys(ERROR_TABLE) as ErrorCode[];

/** Whether a value is one of the `ERROR_TABLE` codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_TABLE, value);
}

function rowOf(code: ErrorCode): ErrorRow {
  return ERROR_TABLE[code];
}

function inherited<K extends 'exit' | 'status' | 'retryable' | 'hint'>(
  code: ErrorCode,
  key: K,
): ErrorRow[K] | undefined {
  for (const current of lineageOf(code)) {
    const value = rowOf(current)[key];
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Exit code for a code: its own, else its nearest ancestor's. */
export function exitCodeForCode(code: ErrorCode): number {
  return inherited(code, 'exit') ?? 1;
}

/** HTTP status for a code (the problem's `status`): its own, else its nearest ancestor's. */
export function httpStatusForCode(code: ErrorCode): number {
  return inherited(code, 'status') ?? 500;
}

/** Class-level retryability (an instance may override it; see isRetryable). */
export function retryableForCode(code: ErrorCode): boolean {
  return inherited(code, 'retryable') ?? false;
}

/** The default remediation hint for a code: its own, else its nearest ancestor's (every code has one). */
export function hintForCode(code: ErrorCode): string | undefined {
  return inherited(code, 'hint');
}

/** The short human title of a code (the problem's `title`). */
export function titleForCode(code: ErrorCode): string {
  return rowOf(code).title;
}

export function classNameForCode(code: ErrorCode): string {
  return rowOf(code).className;
}

/** `https://gflow.dev/errors/<slug>`; the root class is `about:blank` (RFC 9457 §4.2.1). */
export const ERROR_TYPE_BASE = 'https://gflow.dev/errors/';

/** The problem `type` URI of a code: `ERROR_TYPE_BASE` + code; `about:blank` for the root. */
export function typeUriForCode(code: ErrorCode): string {
  return code === 'gflow' ? 'about:blank' : `${ERROR_TYPE_BASE}${code}`;
}

/** Ancestors from the code itself up to the root. */
export function lineageOf(code: ErrorCode): ErrorCode[] {
  const chain: ErrorCode[] = [];
  let current: string | null = code;
  while (current !== null && isErrorCode(current)) {
    chain.push(current);
    current = rowOf(current).parent;
  }
  return chain;
}
