import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CLASSES } from './classes.js';
import { exitCodeOf } from './retryable.js';
import { ERROR_CODES, ERROR_TABLE, exitCodeForCode, lineageOf, typeUriForCode } from './table.js';

// The exit-code contract of reference/gflow-surfaces.md §3.1, class by class.
const EXPECTED_EXIT: Record<string, number> = {
  GflowError: 1,
  UnknownError: 1,
  FlowApiError: 1,
  RecaptchaError: 1,
  BatchPartialError: 1,
  UsageError: 2,
  BadParameterError: 2,
  InvalidOutputError: 2,
  NoProfileError: 2,
  NoDefaultProfileError: 2,
  AuthExpiredError: 3,
  AisandboxAuthError: 3,
  RateLimitError: 4,
  ContentPolicyError: 5,
  NetworkError: 6,
  MediaDownloadError: 6,
  WireFormatError: 7,
  AuthMissingError: 8,
  TransportTimeoutError: 9,
  WafRejectionError: 10,
  ConfigurationError: 11,
  ProfileLockedError: 11,
  ChainManifestError: 11,
  ProfileEngineDowngradeError: 11,
  AuthLoginTimeoutError: 12,
  SecurityError: 13,
  AuthBrowserRejectedError: 14,
  BrowserSessionClosedError: 15,
  DataStoreError: 16,
  DataMigrationError: 16,
  DataIntegrityError: 16,
  ModelModeIncompatibilityError: 17,
  VideoModelSelectionError: 18,
  SceneConcatError: 19,
  FrameExtractionError: 20,
  ChainPartialError: 21,
  UpscaleUnavailableError: 22,
  UiSelectorDriftError: 23,
  BrowserEngineUnavailableError: 24,
  FlowAgentUiError: 25,
  MediaAttributionError: 26,
  MediaUploadRejectedError: 27,
  UiModeUnavailableError: 28,
  MentionIndexUnavailableError: 29,
  QueueSchemaError: 30,
  FlowAppError: 31,
  ReferenceNotFoundError: 32,
  DoctorFindingsError: 33,
  SyncPartialError: 34,
  ExtendUnavailableError: 35,
  FlowHostMigratedError: 36,
  InsufficientCreditsError: 37,
  FlowAccountChooserError: 38,
  FlowAccessUnavailableError: 39,
  BudgetExceededError: 40,
  FlowDriftError: 41,
  CatalogBusyError: 42,
  CancelledError: 130,
};

describe('exit codes', () => {
  it.each(Object.entries(EXPECTED_EXIT))('%s exits %i', (className, exit) => {
    const cls = Object.values(ERROR_CLASSES).find((c) => c.name === className);
    expect(cls, `${className} exists`).toBeDefined();
    const error = new cls!('x');
    expect(error.exitCode).toBe(exit);
    expect(exitCodeOf(error)).toBe(exit);
  });

  it('covers every exit code 0–42 and 130', () => {
    const reachable = new Set([exitCodeOf(undefined), ...ERROR_CODES.map(exitCodeForCode)]);
    for (let code = 0; code <= 42; code += 1) expect(reachable.has(code), `exit ${code}`).toBe(true);
    expect(reachable.has(130)).toBe(true);
  });

  it('maps a non-gflow error to 1 and an abort to 130', () => {
    expect(exitCodeOf(new TypeError('boom'))).toBe(1);
    expect(exitCodeOf(Object.assign(new Error('stop'), { name: 'AbortError' }))).toBe(130);
  });

  it("lets a subclass without its own code inherit its parent's (most specific wins)", () => {
    const withoutExit = ERROR_CODES.filter((code) => !('exit' in ERROR_TABLE[code]));
    expect(withoutExit.length).toBeGreaterThan(5);
    for (const code of withoutExit) {
      const parent = ERROR_TABLE[code].parent;
      expect(parent).not.toBeNull();
      expect(exitCodeForCode(code)).toBe(exitCodeForCode(parent as never));
    }
  });
});

describe('table and classes agree', () => {
  it('has one class per row whose prototype chain mirrors the table', () => {
    expect(Object.keys(ERROR_CLASSES).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) {
      const cls = ERROR_CLASSES[code];
      expect(cls.code).toBe(code);
      expect(cls.name).toBe(ERROR_TABLE[code].className);
      const parent = Object.getPrototypeOf(cls) as { code?: string };
      expect(parent.code ?? null).toBe(code === 'gflow' ? null : ERROR_TABLE[code].parent);
      expect(lineageOf(code).at(-1)).toBe('gflow');
    }
  });

  it("documents each class with its row's code and title (docs/api/errors.md is generated from them)", () => {
    const source = fs.readFileSync(new URL('./classes.ts', import.meta.url), 'utf8');
    for (const code of ERROR_CODES.filter((c) => c !== 'gflow')) {
      const row = ERROR_TABLE[code];
      expect(source, row.className).toContain(
        `/** \`${code}\`: ${row.title}. Its exit code, HTTP status, retryability and hint: \`ERROR_TABLE['${code}']\`. */\nexport class ${row.className} extends`,
      );
    }
  });

  it('gives every code a stable, unique type URI', () => {
    const uris = ERROR_CODES.map(typeUriForCode);
    expect(new Set(uris).size).toBe(uris.length);
    expect(typeUriForCode('auth-expired')).toBe('https://gflow.dev/errors/auth-expired');
    expect(typeUriForCode('gflow')).toBe('about:blank');
  });
});
