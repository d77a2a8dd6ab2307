// One class per ERROR_TABLE row, extending the class of its parent row.
// classes.test.ts checks that this file and the table agree.
import { GflowError } from './gflowError.js';
import type { ErrorCode } from './table.js';

export class UnknownError extends GflowError {
  static override readonly code: ErrorCode = 'unknown';
}
export class CancelledError extends GflowError {
  static override readonly code: ErrorCode = 'cancelled';
}
export class UsageError extends GflowError {
  static override readonly code: ErrorCode = 'usage';
}
export class BadParameterError extends UsageError {
  static override readonly code: ErrorCode = 'bad-parameter';
}
export class InvalidOutputError extends BadParameterError {
  static override readonly code: ErrorCode = 'invalid-output';
}
export class NoProfileError extends UsageError {
  static override readonly code: ErrorCode = 'no-profile';
}
export class NoDefaultProfileError extends UsageError {
  static override readonly code: ErrorCode = 'no-default-profile';
}
export class ReferenceNotUsableError extends UsageError {
  static override readonly code: ErrorCode = 'reference-not-usable';
}
export class ReferenceNotOnDiskError extends UsageError {
  static override readonly code: ErrorCode = 'reference-not-on-disk';
}
export class FlowApiError extends GflowError {
  static override readonly code: ErrorCode = 'api-error';
}
export class AuthExpiredError extends FlowApiError {
  static override readonly code: ErrorCode = 'auth-expired';
}
export class AisandboxAuthError extends AuthExpiredError {
  static override readonly code: ErrorCode = 'aisandbox-auth';
}
export class RateLimitError extends FlowApiError {
  static override readonly code: ErrorCode = 'rate-limit';
}
export class ContentPolicyError extends FlowApiError {
  static override readonly code: ErrorCode = 'content-policy';
}
export class NetworkError extends FlowApiError {
  static override readonly code: ErrorCode = 'network';
}
export class MediaDownloadError extends NetworkError {
  static override readonly code: ErrorCode = 'media-download';
}
export class WireFormatError extends FlowApiError {
  static override readonly code: ErrorCode = 'wire-format';
}
export class SceneConcatError extends FlowApiError {
  static override readonly code: ErrorCode = 'scene-concat';
}
export class AuthMissingError extends GflowError {
  static override readonly code: ErrorCode = 'auth-missing';
}
export class TransportTimeoutError extends GflowError {
  static override readonly code: ErrorCode = 'transport-timeout';
}
export class WafRejectionError extends GflowError {
  static override readonly code: ErrorCode = 'waf-rejection';
}
export class ConfigurationError extends GflowError {
  static override readonly code: ErrorCode = 'configuration';
}
export class ProfileLockedError extends ConfigurationError {
  static override readonly code: ErrorCode = 'profile-locked';
}
export class OutputNotWritableError extends ConfigurationError {
  static override readonly code: ErrorCode = 'output-not-writable';
}
export class OutputWriteFailedError extends ConfigurationError {
  static override readonly code: ErrorCode = 'output-write-failed';
}
export class ChainManifestError extends ConfigurationError {
  static override readonly code: ErrorCode = 'chain-manifest';
}
export class ProfileEngineDowngradeError extends ConfigurationError {
  static override readonly code: ErrorCode = 'profile-engine-downgrade';
}
export class BrowserEngineUnavailableError extends ConfigurationError {
  static override readonly code: ErrorCode = 'browser-engine-unavailable';
}
export class ModelModeIncompatibilityError extends ConfigurationError {
  static override readonly code: ErrorCode = 'model-mode-incompatibility';
}
export class VideoModelSelectionError extends ConfigurationError {
  static override readonly code: ErrorCode = 'video-model-selection';
}
export class AuthLoginTimeoutError extends GflowError {
  static override readonly code: ErrorCode = 'auth-login-timeout';
}
export class SecurityError extends GflowError {
  static override readonly code: ErrorCode = 'security';
}
export class AuthBrowserRejectedError extends GflowError {
  static override readonly code: ErrorCode = 'auth-browser-rejected';
}
export class BrowserSessionClosedError extends GflowError {
  static override readonly code: ErrorCode = 'browser-session-closed';
}
export class DataStoreError extends GflowError {
  static override readonly code: ErrorCode = 'data-store';
}
export class DataMigrationError extends DataStoreError {
  static override readonly code: ErrorCode = 'data-migration';
}
export class DataIntegrityError extends DataStoreError {
  static override readonly code: ErrorCode = 'data-integrity';
}
export class FrameExtractionError extends GflowError {
  static override readonly code: ErrorCode = 'frame-extraction';
}
export class ChainPartialError extends GflowError {
  static override readonly code: ErrorCode = 'chain-partial';
}
export class UpscaleUnavailableError extends GflowError {
  static override readonly code: ErrorCode = 'upscale-unavailable';
}
export class UiSelectorDriftError extends GflowError {
  static override readonly code: ErrorCode = 'ui-selector-drift';
}
export class FlowAgentUiError extends GflowError {
  static override readonly code: ErrorCode = 'flow-agent-ui';
}
export class MediaAttributionError extends GflowError {
  static override readonly code: ErrorCode = 'media-attribution';
}
export class MediaUploadRejectedError extends GflowError {
  static override readonly code: ErrorCode = 'media-upload-rejected';
}
export class UiModeUnavailableError extends GflowError {
  static override readonly code: ErrorCode = 'ui-mode-unavailable';
}
export class MentionIndexUnavailableError extends GflowError {
  static override readonly code: ErrorCode = 'mention-index-unavailable';
}
export class QueueSchemaError extends GflowError {
  static override readonly code: ErrorCode = 'queue-schema';
}
export class FlowAppError extends GflowError {
  static override readonly code: ErrorCode = 'flow-app';
}
export class ReferenceNotFoundError extends GflowError {
  static override readonly code: ErrorCode = 'reference-not-found';
}
export class DoctorFindingsError extends GflowError {
  static override readonly code: ErrorCode = 'doctor-findings';
}
export class SyncPartialError extends GflowError {
  static override readonly code: ErrorCode = 'sync-partial';
}
export class ExtendUnavailableError extends GflowError {
  static override readonly code: ErrorCode = 'extend-unavailable';
}
export class FlowHostMigratedError extends GflowError {
  static override readonly code: ErrorCode = 'flow-host-migrated';
}
export class InsufficientCreditsError extends GflowError {
  static override readonly code: ErrorCode = 'insufficient-credits';
}
export class FlowAccountChooserError extends GflowError {
  static override readonly code: ErrorCode = 'flow-account-chooser';
}
export class FlowAccessUnavailableError extends GflowError {
  static override readonly code: ErrorCode = 'flow-access-unavailable';
}
export class BudgetExceededError extends GflowError {
  static override readonly code: ErrorCode = 'budget-exceeded';
}
export class RecaptchaError extends GflowError {
  static override readonly code: ErrorCode = 'recaptcha-mint';
}
export class BatchPartialError extends GflowError {
  static override readonly code: ErrorCode = 'batch-partial';
}
export class BatchIntegrityError extends GflowError {
  static override readonly code: ErrorCode = 'batch-integrity';
}
export class ProfileMarkerMissingError extends GflowError {
  static override readonly code: ErrorCode = 'profile-marker-missing';
}
export class CookieStoreUnreadableError extends GflowError {
  static override readonly code: ErrorCode = 'cookie-store-unreadable';
}
export class VerificationError extends GflowError {
  static override readonly code: ErrorCode = 'verification-error';
}
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
    RecaptchaError,
    BatchPartialError,
    BatchIntegrityError,
    ProfileMarkerMissingError,
    CookieStoreUnreadableError,
    VerificationError,
    DaemonRecoveryError,
  ].map((cls) => [cls.code, cls]),
) as Readonly<Record<ErrorCode, typeof GflowError>>;
