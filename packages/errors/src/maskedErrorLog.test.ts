import { afterEach, describe, expect, it } from 'vitest';
import { type MaskedErrorEntry, describeThrown, registerMaskedErrorLog } from './maskedErrorLog.js';
import { toErrorEnvelopeBody } from './problem.js';
import { maskedErrorRecord, toGflowError } from './toGflowError.js';

const removals: Array<() => void> = [];
afterEach(() => {
  for (const remove of removals.splice(0)) remove();
});

function memoryLog(accept = true): MaskedErrorEntry[] {
  const entries: MaskedErrorEntry[] = [];
  removals.push(
    registerMaskedErrorLog({
      name: 'logs/errors.log in the gflow home',
      file: '/tmp/home/logs/errors.log',
      write: (entry) => (accept ? entries.push(entry) > 0 : false),
    }),
  );
  return entries;
}

describe('masked errors and their log (issue 40)', () => {
  it('names the log only when the details were written to it, keyed by the instance', () => {
    const entries = memoryLog();
    const cause = Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
    const thrown = new Error('opening the catalog failed', { cause });
    thrown.name = 'SqliteError';
    const body = toErrorEnvelopeBody(thrown);
    expect(body.detail).toBe('Unexpected SqliteError; details were logged to logs/errors.log in the gflow home.');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ instance: body.instance, className: 'SqliteError', pid: process.pid });
    expect(entries[0]?.details).toMatch(/^SqliteError: opening the catalog failed\n\s+at /);
    expect(entries[0]?.details).toContain('Caused by: Error [SQLITE_READONLY]: attempt to write a readonly database');
    // The same thrown value converted again: the same error, no second entry.
    expect(toGflowError(thrown).correlationId).toBe(body.instance.slice('gflow:error:'.length));
    expect(entries).toHaveLength(1);
    expect(maskedErrorRecord(toGflowError(thrown))).toEqual({
      file: '/tmp/home/logs/errors.log',
      details: entries[0]?.details,
    });
  });

  it('says the details were not logged when the log refused the entry or none is open', () => {
    memoryLog(false);
    expect(toGflowError(new TypeError('x')).detail).toMatch(/^Unexpected TypeError; its details were not logged/);
    for (const remove of removals.splice(0)) remove();
    const error = toGflowError(new RangeError('y'));
    expect(error.detail).not.toContain('logged to');
    expect(maskedErrorRecord(error)).toBeUndefined();
  });

  it('describes a thrown value with its causes, redacted', () => {
    const text = describeThrown(new Error('Bearer abcdefghijklmnop', { cause: 'plain ya29.secret-token' }));
    expect(text).toContain('Error: Bearer <redacted:token>');
    expect(text).toContain('Caused by: plain <redacted:token>');
  });
});
