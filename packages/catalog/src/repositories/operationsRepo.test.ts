import { describe, expect, it } from 'vitest';
import { ContentPolicyError, DataIntegrityError } from '@gflow/errors';
import { memoryCatalog } from '../../test/helpers.js';

describe('operations', () => {
  it('records start → succeeded with Flow ids and merged metadata', () => {
    const c = memoryCatalog();
    const op = c.operations.start({
      profile: 'alice',
      command: 'image t2i',
      mode: 't2i',
      prompt: 'a cat',
      model: 'nano2',
      aspectRatio: '1:1',
      taskId: 'task-1',
      metadata: { tool: 'creative-director' },
    });
    expect(op).toMatchObject({
      status: 'started',
      prompt: 'a cat',
      promptRedacted: false,
      completedAt: null,
      taskId: 'task-1',
    });
    expect(op.promptHash).toMatch(/^[0-9a-f]{64}$/);
    const done = c.operations.succeed(op.id, {
      flowProjectId: 'p-1',
      flowOperationId: 'op-9',
      metadata: { entity_ids: ['e1'] },
    });
    expect(done).toMatchObject({ status: 'succeeded', flowProjectId: 'p-1', flowOperationId: 'op-9' });
    expect(done.completedAt! > done.startedAt).toBe(true);
    expect(JSON.parse(done.metadataJson)).toEqual({ tool: 'creative-director', entity_ids: ['e1'] });
    expect(() => c.operations.succeed(op.id)).toThrow(DataIntegrityError);
    expect(() => c.operations.succeed(12345)).toThrow(DataIntegrityError);
  });

  it('records failures with the slug and a redacted detail of at most 500 characters', () => {
    const c = memoryCatalog();
    const op = c.operations.start({ profile: 'alice', command: 'video t2v' });
    const detail = `fetch https://storage.googleapis.com/x.mp4?X-Goog-Signature=abc123 failed with Bearer ya29.secrettoken ${'x'.repeat(900)}`;
    const failed = c.operations.fail(op.id, { errorType: 'network', errorDetail: detail });
    expect(failed.status).toBe('failed');
    expect(failed.errorType).toBe('network');
    expect(failed.errorDetail!.length).toBeLessThanOrEqual(500);
    expect(failed.errorDetail).not.toMatch(/abc123|ya29\.secret/);
    expect(failed.errorDetail).toMatch(/redacted/);
  });

  it('a failed run whose media were recovered later succeeds, its error cleared, and leaves the error list', () => {
    const c = memoryCatalog();
    const op = c.operations.start({ profile: 'alice', command: 'video t2v' });
    c.operations.fail(op.id, { errorType: 'cancelled', errorDetail: 'Ctrl-C after the submit' });
    expect(c.errors.list().items.map((e) => e.operationId)).toContain(op.id);
    const recovered = c.operations.recover(op.id, { flowProjectId: 'p-1' });
    expect(recovered).toMatchObject({ status: 'succeeded', errorType: null, errorDetail: null, flowProjectId: 'p-1' });
    expect(JSON.parse(recovered.metadataJson)).toMatchObject({ recovered: true });
    expect(c.errors.list().items.map((e) => e.operationId)).not.toContain(op.id);
  });

  it('failWith takes the slug from a gflow error and masks foreign ones', () => {
    const c = memoryCatalog();
    const a = c.operations.start({ profile: 'alice', command: 'image t2i' });
    expect(c.operations.failWith(a.id, new ContentPolicyError('Blocked by policy.'))).toMatchObject({
      errorType: 'content-policy',
      errorDetail: 'Blocked by policy.',
    });
    const b = c.operations.start({ profile: 'alice', command: 'image t2i' });
    const masked = c.operations.failWith(b.id, new TypeError('/home/me/secret path'));
    expect(masked.errorType).toBe('unknown');
    expect(masked.errorDetail).toMatch(/^Unexpected TypeError; /);
    expect(masked.errorDetail).not.toContain('secret');
  });

  it('lists, exports and prunes errors, newest first', () => {
    const c = memoryCatalog();
    const ids = [0, 1, 2].map((i) => {
      const op = c.operations.start({ profile: i === 2 ? 'bob' : 'alice', command: 'image t2i', model: 'nano2' });
      return c.operations.fail(op.id, { errorType: 'rate-limit', errorDetail: `e${i}` }).id;
    });
    c.operations.succeed(c.operations.start({ profile: 'alice', command: 'image t2i' }).id);
    expect(c.errors.list().items.map((e) => e.operationId)).toEqual([...ids].reverse());
    expect(c.errors.list({ profile: 'alice', limit: 1 })).toMatchObject({ count: 1, hasMore: true, nextOffset: 1 });
    const cutoff = c.operations.get(ids[2]!)!.startedAt;
    expect(c.errors.exportBefore(cutoff).map((e) => e.errorDetail)).toEqual(['e0', 'e1']);
    expect(c.errors.prune(cutoff, { dryRun: true })).toEqual({ count: 2, dryRun: true });
    expect(c.errors.prune(cutoff, { profile: 'alice' })).toEqual({ count: 2, dryRun: false });
    expect(c.errors.list().items.map((e) => e.operationId)).toEqual([ids[2]]);
    expect(c.operations.get(ids[0]!)).toBeUndefined();
  });
});
