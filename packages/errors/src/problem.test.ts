import { describe, expect, it } from 'vitest';
import {
  AuthExpiredError,
  ContentPolicyError,
  FlowAppError,
  FlowHostMigratedError,
  MediaDownloadError,
  NetworkError,
  ProfileLockedError,
  RateLimitError,
  UiModeUnavailableError,
  UpscaleUnavailableError,
  WafRejectionError,
  ERROR_CLASSES,
} from './classes.js';
import { GFLOW_ERROR_BRAND, hasErrorCode, isGflowError } from './gflowError.js';
import { advisesRetry, refusesRetry } from './problemDocument.js';
import { errorMessage, fromProblem, toErrorEnvelopeBody, toFailureEnvelope, toProblem } from './problem.js';
import { isRetryable } from './retryable.js';
import { toGflowError } from './toGflowError.js';

describe('problem details', () => {
  it('carries the RFC 9457 members and gflow extensions', () => {
    const error = new AuthExpiredError('cookies were rejected', {
      extensions: { flow_media_id: 'm-1' },
      incident: { id: 'inc1', capture_status: 'captured' },
    });
    const problem = toProblem(error);
    expect(problem).toMatchObject({
      type: 'https://gflow.dev/errors/auth-expired',
      title: 'Authentication Expired',
      status: 401,
      detail: 'cookies were rejected',
      retryable: false,
      flow_media_id: 'm-1',
      incident: { id: 'inc1', capture_status: 'captured' },
    });
    expect(problem.instance).toMatch(/^gflow:error:[0-9a-f-]{36}$/);
    expect(problem.remediation_hint).toContain('gflow auth login');
  });

  it('every class carries all six fields, and its hint never contradicts its retryable', () => {
    const SIX = ['retryable', 'status', 'title', 'detail', 'remediation_hint', 'type'];
    for (const [code, ErrorClass] of Object.entries(ERROR_CLASSES)) {
      for (const retryable of [undefined, true, false]) {
        const error = new ErrorClass('something happened', retryable === undefined ? {} : { retryable });
        const envelope = toErrorEnvelopeBody(error);
        for (const field of SIX) expect(envelope[field], `${code} ${field}`).toBeDefined();
        expect(typeof envelope.status, code).toBe('number');
        expect(envelope.remediation_hint.length, code).toBeGreaterThan(10);
        const hint = envelope.remediation_hint;
        if (envelope.retryable) expect(refusesRetry(hint), `${code} retryable: ${hint}`).toBe(false);
        else expect(advisesRetry(hint), `${code} not retryable: ${hint}`).toBe(false);
      }
    }
    expect(toProblem(new ContentPolicyError('refused'))).toMatchObject({ status: 422 });
  });

  it('tells retry advice apart from a mention of retrying', () => {
    for (const hint of ['Check the connection and retry.', 'Retry; if it timed out…', 'wait, then retry once.'])
      expect(advisesRetry(hint), hint).toBe(true);
    for (const hint of [
      'look there before retrying (a retry may make another one).',
      'a retry lands on /about again.',
      'Only the account owner can fix this; do not retry.',
    ])
      expect(advisesRetry(hint), hint).toBe(false);
    expect(refusesRetry('Only the owner can fix this; do not retry.')).toBe(true);
    // A raise site's own hint that contradicts its retryable is not passed on.
    const contradicting = toErrorEnvelopeBody(
      new NetworkError('x', { retryable: false, remediationHint: 'Wait, then retry.' }),
    );
    expect(contradicting.remediation_hint).toContain('Do not retry');
  });

  it('a network error after the submit (not retryable) does not say "check the connection and retry"', () => {
    const envelope = toErrorEnvelopeBody(new NetworkError('Flow answered YhhmEf with HTTP 503.', { retryable: false }));
    expect(envelope.retryable).toBe(false);
    expect(envelope.remediation_hint).not.toMatch(/retry\./i);
    expect(envelope.remediation_hint).toContain('Check the Flow project');
    const named = toErrorEnvelopeBody(new NetworkError('x', { retryable: false }), { flowProjectId: 'proj-7' });
    expect(named).toMatchObject({ flow_project_id: 'proj-7' });
    expect(named.remediation_hint).toContain('Flow project proj-7');
    expect(named.message).toContain('Flow project proj-7');
    // A hint that already names the project is left as it is (no "proj-7 proj-7").
    const own = new NetworkError('x', {
      retryable: false,
      remediationHint: 'Look in the Flow project proj-7 first before retrying.',
    });
    expect(toErrorEnvelopeBody(own, { flowProjectId: 'proj-7' }).remediation_hint).toBe(
      'Look in the Flow project proj-7 first before retrying.',
    );
  });

  it('does not let an extension overwrite a reserved member', () => {
    const problem = toProblem(new AuthExpiredError('x', { extensions: { retryable: true, type: 'evil' } }));
    expect(problem.retryable).toBe(false);
    expect(problem.type).toBe('https://gflow.dev/errors/auth-expired');
  });

  it('formats the message as [Class] detail (Remediation: hint)', () => {
    expect(errorMessage(new ProfileLockedError('held by pid 42', { remediationHint: 'wait' }))).toBe(
      '[ProfileLockedError] held by pid 42 (Remediation: wait)',
    );
    expect(toErrorEnvelopeBody(new ProfileLockedError('held')).message).toMatch(
      /^\[ProfileLockedError\] held \(Remediation: /,
    );
  });

  it('rebuilds the typed error from its problem after a process hop', () => {
    const original = new RateLimitError('slow down', { extensions: { retry_after: 20 } });
    const wire = JSON.parse(JSON.stringify(toProblem(original))) as ReturnType<typeof toProblem>;
    const rebuilt = fromProblem(wire);
    expect(rebuilt).toBeInstanceOf(RateLimitError);
    expect(rebuilt.exitCode).toBe(4);
    expect(rebuilt.correlationId).toBe(original.correlationId);
    expect(rebuilt.extensions['retry_after']).toBe(20);
    expect(fromProblem({ type: 'https://elsewhere/x', detail: 'd' }).code).toBe('unknown');
  });
});

describe('retryable', () => {
  it('follows the RETRYABLE set', () => {
    for (const error of [
      new WafRejectionError(),
      new RateLimitError(),
      new NetworkError(),
      new FlowAppError(),
      new UiModeUnavailableError(),
    ]) {
      expect(isRetryable(error), error.name).toBe(true);
    }
    for (const error of [
      new AuthExpiredError(),
      new ContentPolicyError(),
      new FlowHostMigratedError(),
      new UpscaleUnavailableError(),
      new MediaDownloadError(),
    ]) {
      expect(isRetryable(error), error.name).toBe(false);
    }
  });

  it('reads the instance override first', () => {
    expect(isRetryable(new FlowAppError('landed on /about', { retryable: false }))).toBe(false);
    expect(isRetryable(new AuthExpiredError('x', { retryable: true }))).toBe(true);
    expect(toProblem(new FlowAppError('x', { retryable: false })).retryable).toBe(false);
  });
});

describe('masking', () => {
  it('masks a non-gflow error but keeps it as cause', () => {
    const secret = new Error('ENOENT /home/alice/.local/share/gflow-cli/profile_bob/Cookies ya29.a0AfH6SMBx');
    const error = toGflowError(secret);
    expect(error.detail).toBe('Unexpected Error; its details were not logged (no gflow home is open in this process).');
    expect(error.cause).toBe(secret);
    const wire = JSON.stringify(toErrorEnvelopeBody(secret));
    expect(wire).not.toContain('alice');
    expect(wire).not.toContain('ya29');
    expect(wire).not.toContain('ENOENT');
    expect(toProblem(secret)).toMatchObject({
      status: 500,
      retryable: false,
      title: 'Unexpected Error',
      type: 'https://gflow.dev/errors/unknown',
    });
  });

  it('names the class of what was thrown, never its text', () => {
    expect(toGflowError(new TypeError('x')).detail).toMatch(/^Unexpected TypeError; its details were not logged/);
    expect(toGflowError('a string with a token ya29.zzz').detail).toMatch(/^Unexpected string; /);
    expect(toGflowError(Object.assign(new Error('x'), { name: 'AbortError' })).code).toBe('cancelled');
  });

  it('redacts secrets that a raise site put in a gflow error detail', () => {
    const problem = toProblem(
      new NetworkError(
        'GET https://flow-content.google/v/1?Expires=1&Signature=abc failed with Authorization: Bearer ya29.secret-token',
      ),
    );
    expect(problem.detail).not.toContain('Signature=abc');
    expect(problem.detail).not.toContain('secret-token');
  });
});

describe('cross-copy recognition', () => {
  it('recognises an error by brand and code, not by instanceof', () => {
    const foreign = Object.assign(Object.create(Error.prototype) as object, {
      [GFLOW_ERROR_BRAND]: true,
      code: 'auth-expired',
    });
    expect(isGflowError(foreign)).toBe(true);
    expect(hasErrorCode(foreign, 'api-error')).toBe(true);
    expect(isGflowError(new Error('x'))).toBe(false);
    expect(isGflowError({ code: 'auth-expired' })).toBe(false);
    expect(Symbol.for('gflow.error')).toBe(GFLOW_ERROR_BRAND);
  });

  it('answers is() for ancestors', () => {
    const error = new ProfileLockedError('x');
    expect(error.is('configuration')).toBe(true);
    expect(error.is('gflow')).toBe(true);
    expect(error.is('security')).toBe(false);
  });
});

describe('toFailureEnvelope: the one failure document of every surface', () => {
  it('is {status, error}: rate_limited for a refused token, error for anything else, masked when foreign', () => {
    expect(toFailureEnvelope(new RateLimitError('slow down'))).toMatchObject({
      status: 'rate_limited',
      error: { type: 'https://gflow.dev/errors/rate-limit', detail: 'slow down' },
    });
    const foreign = toFailureEnvelope(new TypeError('secret internals'));
    expect(foreign.status).toBe('error');
    expect(foreign.error.detail).not.toContain('secret');
    expect(Object.keys(toFailureEnvelope(new ContentPolicyError('no'))).sort()).toEqual(['error', 'status']);
  });
});

describe('a GflowError instance (issue 42)', () => {
  it.each(Object.entries(ERROR_CLASSES))(
    '%s carries retryable as a property, equal to isRetryable',
    (_code, ErrorClass) => {
      for (const override of [undefined, true, false]) {
        const error = new ErrorClass('x', override === undefined ? {} : { retryable: override });
        expect(error.retryable).toBe(isRetryable(error));
        if (override !== undefined) expect(error.retryable).toBe(override);
      }
    },
  );

  it('a rate limit is retryable as a property, a content-policy refusal is not', () => {
    expect(new RateLimitError('slow down').retryable).toBe(true);
    expect(new ContentPolicyError('no').retryable).toBe(false);
    expect(new NetworkError('lost after submit', { retryable: false }).retryable).toBe(false);
  });

  it('JSON.stringify writes the RFC 9457 problem document, the same toProblem gives', () => {
    const error = new RateLimitError('Flow said slow down for ya29.secret-token', {
      extensions: { flow_media_id: 'm-1', status: 200 },
      incident: { id: 'inc1', capture_status: 'captured' },
    });
    const written = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(written).toEqual(JSON.parse(JSON.stringify(toProblem(error))));
    expect(written).toMatchObject({
      type: 'https://gflow.dev/errors/rate-limit',
      title: error.title,
      status: error.status,
      retryable: true,
      flow_media_id: 'm-1',
      incident: { id: 'inc1', capture_status: 'captured' },
      instance: `gflow:error:${error.correlationId}`,
    });
    // Redacted like every envelope; an extension never overrides a reserved member.
    expect(written['detail']).not.toContain('ya29.secret-token');
    expect(written['status']).toBe(429);
    expect(fromProblem(written as never)).toBeInstanceOf(RateLimitError);
  });

  it('toJSON names the known project in the hint as toProblem does', () => {
    const error = new NetworkError('lost', { retryable: false });
    expect(error.toJSON({ flowProjectId: 'p-9' })).toEqual({ ...toProblem(error, { flowProjectId: 'p-9' }) });
    expect(error.toJSON({ flowProjectId: 'p-9' }).remediation_hint).toContain('p-9');
  });
});
