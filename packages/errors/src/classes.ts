// One class per ERROR_TABLE row, extending the class of its parent row.
// table.test.ts checks that this file and the table agree, each class's doc comment included.
import { GflowError } from './gflowError.js';
import type { ErrorCode } from './table.js';

/** `unknown`: Unexpected Error. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['unknown']`. */
export class UnknownError extends GflowError {
  static override readonly code: ErrorCode = 'unknown';
}
/** `cancelled`: Cancelled. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['cancelled']`. */
export class CancelledError extends GflowError {
  static override readonly code: ErrorCode = 'cancelled';
}
/** `usage`: Usage Error. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['usage']`. */
export class UsageError extends GflowError {
  static override readonly code: ErrorCode = 'usage';
}
/** `bad-parameter`: Bad Parameter. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['bad-parameter']`. */
export class BadParameterError extends UsageError {
  static override readonly code: ErrorCode = 'bad-parameter';
}
/** `invalid-output`: Invalid Output. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['invalid-output']`. */
export class InvalidOutputError extends BadParameterError {
  static override readonly code: ErrorCode = 'invalid-output';
}
/** `no-profile`: No Profile. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['no-profile']`. */
export class NoProfileError extends UsageError {
  static override readonly code: ErrorCode = 'no-profile';
}
/** `no-default-profile`: No Default Profile. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['no-default-profile']`. */
export class NoDefaultProfileError extends UsageError {
  static override readonly code: ErrorCode = 'no-default-profile';
}
/** `reference-not-usable`: Reference Not Usable. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['reference-not-usable']`. */
export class ReferenceNotUsableError extends UsageError {
  static override readonly code: ErrorCode = 'reference-not-usable';
}
/** `reference-not-on-disk`: Reference Not On Disk. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['reference-not-on-disk']`. */
export class ReferenceNotOnDiskError extends UsageError {
  static override readonly code: ErrorCode = 'reference-not-on-disk';
}
/** `api-error`: Flow API Error. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['api-error']`. */
export class FlowApiError extends GflowError {
  static override readonly code: ErrorCode = 'api-error';
}
/** `auth-expired`: Authentication Expired. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['auth-expired']`. */
export class AuthExpiredError extends FlowApiError {
  static override readonly code: ErrorCode = 'auth-expired';
}
/** `aisandbox-auth`: Flow Session Rejected. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['aisandbox-auth']`. */
export class AisandboxAuthError extends AuthExpiredError {
  static override readonly code: ErrorCode = 'aisandbox-auth';
}
/** `rate-limit`: Rate Limited. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['rate-limit']`. */
export class RateLimitError extends FlowApiError {
  static override readonly code: ErrorCode = 'rate-limit';
}
/** `content-policy`: Content Policy Refusal. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['content-policy']`. */
export class ContentPolicyError extends FlowApiError {
  static override readonly code: ErrorCode = 'content-policy';
}
/** `network`: Network Error. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['network']`. */
export class NetworkError extends FlowApiError {
  static override readonly code: ErrorCode = 'network';
}
/** `media-download`: Media Download Failed. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['media-download']`. */
export class MediaDownloadError extends NetworkError {
  static override readonly code: ErrorCode = 'media-download';
}
/** `wire-format`: Unexpected Response Shape. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['wire-format']`. */
export class WireFormatError extends FlowApiError {
  static override readonly code: ErrorCode = 'wire-format';
}
/** `scene-concat`: Scene Concatenation Failed. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['scene-concat']`. */
export class SceneConcatError extends FlowApiError {
  static override readonly code: ErrorCode = 'scene-concat';
}
/** `auth-missing`: No Flow Session. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['auth-missing']`. */
export class AuthMissingError extends GflowError {
  static override readonly code: ErrorCode = 'auth-missing';
}
/** `transport-timeout`: Operation Timed Out. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['transport-timeout']`. */
export class TransportTimeoutError extends GflowError {
  static override readonly code: ErrorCode = 'transport-timeout';
}
/** `waf-rejection`: Request Rejected By Flow. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['waf-rejection']`. */
export class WafRejectionError extends GflowError {
  static override readonly code: ErrorCode = 'waf-rejection';
}
/** `configuration`: Configuration Error. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['configuration']`. */
export class ConfigurationError extends GflowError {
  static override readonly code: ErrorCode = 'configuration';
}
/** `profile-locked`: Profile In Use. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['profile-locked']`. */
export class ProfileLockedError extends ConfigurationError {
  static override readonly code: ErrorCode = 'profile-locked';
}
/** `output-not-writable`: Output Not Writable. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['output-not-writable']`. */
export class OutputNotWritableError extends ConfigurationError {
  static override readonly code: ErrorCode = 'output-not-writable';
}
/** `output-write-failed`: Output Write Failed. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['output-write-failed']`. */
export class OutputWriteFailedError extends ConfigurationError {
  static override readonly code: ErrorCode = 'output-write-failed';
}
/** `chain-manifest`: Invalid Chain Manifest. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['chain-manifest']`. */
export class ChainManifestError extends ConfigurationError {
  static override readonly code: ErrorCode = 'chain-manifest';
}
/** `profile-engine-downgrade`: Browser Downgrade Refused. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['profile-engine-downgrade']`. */
export class ProfileEngineDowngradeError extends ConfigurationError {
  static override readonly code: ErrorCode = 'profile-engine-downgrade';
}
/** `browser-engine-unavailable`: Browser Unavailable. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['browser-engine-unavailable']`. */
export class BrowserEngineUnavailableError extends ConfigurationError {
  static override readonly code: ErrorCode = 'browser-engine-unavailable';
}
/** `model-mode-incompatibility`: Model Cannot Do This Mode. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['model-mode-incompatibility']`. */
export class ModelModeIncompatibilityError extends ConfigurationError {
  static override readonly code: ErrorCode = 'model-mode-incompatibility';
}
/** `video-model-selection`: Video Model Not Selectable. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['video-model-selection']`. */
export class VideoModelSelectionError extends ConfigurationError {
  static override readonly code: ErrorCode = 'video-model-selection';
}
/** `auth-login-timeout`: Login Timed Out. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['auth-login-timeout']`. */
export class AuthLoginTimeoutError extends GflowError {
  static override readonly code: ErrorCode = 'auth-login-timeout';
}
/** `security`: Security Boundary. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['security']`. */
export class SecurityError extends GflowError {
  static override readonly code: ErrorCode = 'security';
}
/** `auth-browser-rejected`: Login Browser Rejected. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['auth-browser-rejected']`. */
export class AuthBrowserRejectedError extends GflowError {
  static override readonly code: ErrorCode = 'auth-browser-rejected';
}
/** `browser-session-closed`: Browser Closed. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['browser-session-closed']`. */
export class BrowserSessionClosedError extends GflowError {
  static override readonly code: ErrorCode = 'browser-session-closed';
}
/** `data-store`: Catalog Error. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['data-store']`. */
export class DataStoreError extends GflowError {
  static override readonly code: ErrorCode = 'data-store';
}
/** `data-migration`: Catalog Migration Refused. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['data-migration']`. */
export class DataMigrationError extends DataStoreError {
  static override readonly code: ErrorCode = 'data-migration';
}
/** `data-integrity`: Catalog Integrity Error. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['data-integrity']`. */
export class DataIntegrityError extends DataStoreError {
  static override readonly code: ErrorCode = 'data-integrity';
}
/** `catalog-busy`: Catalog Busy. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['catalog-busy']`. */
export class CatalogBusyError extends DataStoreError {
  static override readonly code: ErrorCode = 'catalog-busy';
}
/** `frame-extraction`: Frame Extraction Failed. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['frame-extraction']`. */
export class FrameExtractionError extends GflowError {
  static override readonly code: ErrorCode = 'frame-extraction';
}
/** `chain-partial`: Chain Stopped Partway. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['chain-partial']`. */
export class ChainPartialError extends GflowError {
  static override readonly code: ErrorCode = 'chain-partial';
}
/** `upscale-unavailable`: Upscale Unavailable. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['upscale-unavailable']`. */
export class UpscaleUnavailableError extends GflowError {
  static override readonly code: ErrorCode = 'upscale-unavailable';
}
/** `ui-selector-drift`: Flow Page Changed. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['ui-selector-drift']`. */
export class UiSelectorDriftError extends GflowError {
  static override readonly code: ErrorCode = 'ui-selector-drift';
}
/** `flow-agent-ui`: Flow Agent UI. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['flow-agent-ui']`. */
export class FlowAgentUiError extends GflowError {
  static override readonly code: ErrorCode = 'flow-agent-ui';
}
/** `media-attribution`: Media Not Attributable. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['media-attribution']`. */
export class MediaAttributionError extends GflowError {
  static override readonly code: ErrorCode = 'media-attribution';
}
/** `media-upload-rejected`: Upload Rejected. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['media-upload-rejected']`. */
export class MediaUploadRejectedError extends GflowError {
  static override readonly code: ErrorCode = 'media-upload-rejected';
}
/** `ui-mode-unavailable`: UI Mode Unavailable. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['ui-mode-unavailable']`. */
export class UiModeUnavailableError extends GflowError {
  static override readonly code: ErrorCode = 'ui-mode-unavailable';
}
/** `mention-index-unavailable`: Mention Index Unavailable. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['mention-index-unavailable']`. */
export class MentionIndexUnavailableError extends GflowError {
  static override readonly code: ErrorCode = 'mention-index-unavailable';
}
/** `queue-schema`: Queue Payload Schema. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['queue-schema']`. */
export class QueueSchemaError extends GflowError {
  static override readonly code: ErrorCode = 'queue-schema';
}
/** `flow-app`: Flow App Error. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['flow-app']`. */
export class FlowAppError extends GflowError {
  static override readonly code: ErrorCode = 'flow-app';
}
/** `reference-not-found`: Reference Not Found. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['reference-not-found']`. */
export class ReferenceNotFoundError extends GflowError {
  static override readonly code: ErrorCode = 'reference-not-found';
}
/** `doctor-findings`: Doctor Found Issues. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['doctor-findings']`. */
export class DoctorFindingsError extends GflowError {
  static override readonly code: ErrorCode = 'doctor-findings';
}
/** `sync-partial`: Sync Partial. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['sync-partial']`. */
export class SyncPartialError extends GflowError {
  static override readonly code: ErrorCode = 'sync-partial';
}
/** `extend-unavailable`: Extend Unavailable. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['extend-unavailable']`. */
export class ExtendUnavailableError extends GflowError {
  static override readonly code: ErrorCode = 'extend-unavailable';
}
/** `flow-host-migrated`: Not Supported On flow.google.com. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['flow-host-migrated']`. */
export class FlowHostMigratedError extends GflowError {
  static override readonly code: ErrorCode = 'flow-host-migrated';
}
/** `insufficient-credits`: Insufficient Credits. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['insufficient-credits']`. */
export class InsufficientCreditsError extends GflowError {
  static override readonly code: ErrorCode = 'insufficient-credits';
}
/** `flow-account-chooser`: Account Mismatch. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['flow-account-chooser']`. */
export class FlowAccountChooserError extends GflowError {
  static override readonly code: ErrorCode = 'flow-account-chooser';
}
/** `flow-access-unavailable`: No Flow Access. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['flow-access-unavailable']`. */
export class FlowAccessUnavailableError extends GflowError {
  static override readonly code: ErrorCode = 'flow-access-unavailable';
}
/** `budget-exceeded`: Budget Exceeded. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['budget-exceeded']`. */
export class BudgetExceededError extends GflowError {
  static override readonly code: ErrorCode = 'budget-exceeded';
}
/** `flow-drift`: Flow Changed Under gflow. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['flow-drift']`. */
export class FlowDriftError extends GflowError {
  static override readonly code: ErrorCode = 'flow-drift';
}
/** `recaptcha-mint`: reCAPTCHA Failed. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['recaptcha-mint']`. */
export class RecaptchaError extends GflowError {
  static override readonly code: ErrorCode = 'recaptcha-mint';
}
/** `batch-partial`: Batch Partial. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['batch-partial']`. */
export class BatchPartialError extends GflowError {
  static override readonly code: ErrorCode = 'batch-partial';
}
/** `batch-integrity`: Batch Integrity. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['batch-integrity']`. */
export class BatchIntegrityError extends GflowError {
  static override readonly code: ErrorCode = 'batch-integrity';
}
/** `profile-marker-missing`: Profile Marker Missing. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['profile-marker-missing']`. */
export class ProfileMarkerMissingError extends GflowError {
  static override readonly code: ErrorCode = 'profile-marker-missing';
}
/** `cookie-store-unreadable`: Cookie Store Unreadable. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['cookie-store-unreadable']`. */
export class CookieStoreUnreadableError extends GflowError {
  static override readonly code: ErrorCode = 'cookie-store-unreadable';
}
/** `verification-error`: Session Verification Failed. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['verification-error']`. */
export class VerificationError extends GflowError {
  static override readonly code: ErrorCode = 'verification-error';
}
/** `daemon-recovery`: Interrupted By Restart. Its exit code, HTTP status, retryability and hint: `ERROR_TABLE['daemon-recovery']`. */
export class DaemonRecoveryError extends GflowError {
  static override readonly code: ErrorCode = 'daemon-recovery';
}

/** Every error class by code, for rebuilding errors after a process hop. */
export const ERROR_CLASSES = Object.fromEntries(
  [
    GflowError,
    UnknownError,
    CancelledError,
    UsageError,
    BadParameterError,
    InvalidOutputError,
    NoProfileError,
    NoDefaultProfileError,
    ReferenceNotUsableError,
    ReferenceNotOnDiskError,
    FlowApiError,
    AuthExpiredError,
    AisandboxAuthError,
    RateLimitError,
    ContentPolicyError,
    NetworkError,
    MediaDownloadError,
    WireFormatError,
    SceneConcatError,
    AuthMissingError,
    TransportTimeoutError,
    WafRejectionError,
    ConfigurationError,
    ProfileLockedError,
    OutputNotWritableError,
    OutputWriteFailedError,
    ChainManifestError,
    ProfileEngineDowngradeError,
    BrowserEngineUnavailableError,
    ModelModeIncompatibilityError,
    VideoModelSelectionError,
    AuthLoginTimeoutError,
    SecurityError,
    AuthBrowserRejectedError,
    BrowserSessionClosedError,
    DataStoreError,
    DataMigrationError,
    DataIntegrityError,
    CatalogBusyError,
    FrameExtractionError,
    ChainPartialError,
    UpscaleUnavailableError,
    UiSelectorDriftError,
    FlowAgentUiError,
    MediaAttributionError,
    MediaUploadRejectedError,
    UiModeUnavailableError,
    MentionIndexUnavailableError,
    QueueSchemaError,
    FlowAppError,
    ReferenceNotFoundError,
    DoctorFindingsError,
    SyncPartialError,
    ExtendUnavailableError,
    FlowHostMigratedError,
    InsufficientCreditsError,
    FlowAccountChooserError,
    FlowAccessUnavailableError,
    BudgetExceededError,
    FlowDriftError,
    RecaptchaError,
    BatchPartialError,
    BatchIntegrityError,
    ProfileMarkerMissingError,
    CookieStoreUnreadableError,
    VerificationError,
    DaemonRecoveryError,
  ].map((cls) => [cls.code, cls]),
) as Readonly<Record<ErrorCode, typeof GflowError>>;
