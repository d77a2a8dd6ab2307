// The generation envelope: one object on the wire (MCP's outputSchema), a union on `status` in
// TypeScript, and the schema holds each status to what its type promises (issue 42).
import { RateLimitError, toErrorEnvelopeBody } from '@gflow/errors';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type GenerationResult, generationEnvelope, generationResult } from './schemas.js';

const problem = toErrorEnvelopeBody(new RateLimitError('Flow asked to slow down.'));
const media = { media_id: 'm-1', workflow_id: null, file: '/o/m-1.png', bytes: 9, width: 1, height: 1, seed: 7 };
const completed = {
  status: 'completed',
  task_id: 't-1',
  flow_project_id: 'p-1',
  flow_media_id: 'm-1',
  files: ['/o/m-1.png'],
  media: [media],
};

/** The paths the schema complains about for `value` (none: accepted). */
function refusedAt(value: unknown): string[] {
  const parsed = generationResult.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
}

describe('the generation envelope, by its status', () => {
  it('accepts what each status carries', () => {
    expect(refusedAt(completed)).toEqual([]);
    expect(refusedAt({ status: 'pending', task_id: 't-1', task_type: 't2i' })).toEqual([]);
    expect(refusedAt({ status: 'estimated', task_id: 't-1', flow_project_id: 'p-1', plan: {} })).toEqual([]);
    for (const status of ['failed', 'cancelled', 'indeterminate', 'rate_limited', 'error'])
      expect(refusedAt({ status, task_id: 't-1', error: problem })).toEqual([]);
    expect(refusedAt({ status: 'invalid_tools', error: 'no prompt tool is named "x"' })).toEqual([]);
  });

  it('refuses a completed envelope without its files, media or ids, naming each', () => {
    const { files: _files, media: _media, flow_media_id: _id, ...bare } = completed;
    expect(refusedAt(bare).sort()).toEqual(['files', 'flow_media_id', 'media']);
    expect(refusedAt({ ...completed, flow_project_id: null })).toEqual(['flow_project_id']);
  });

  it('refuses a failure without a problem document, and a pending envelope without its task', () => {
    expect(refusedAt({ status: 'failed', task_id: 't-1' })).toEqual(['error']);
    expect(refusedAt({ status: 'failed', task_id: 't-1', error: 'it broke' })).toEqual(['error']);
    expect(refusedAt({ status: 'pending' })).toEqual(['task_id']);
    expect(refusedAt({ status: 'done' })).toEqual(['status']);
  });

  it('keeps the members it does not know (a newer gflow may add some)', () => {
    const parsed = generationResult.parse({ ...completed, from_a_newer_gflow: 1 });
    expect(parsed).toMatchObject({ from_a_newer_gflow: 1 });
  });

  it('is one object in JSON Schema: every member a property, no union at its root', () => {
    const json = z.toJSONSchema(generationEnvelope, { io: 'output', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    expect(json['type']).toBe('object');
    expect(json).not.toHaveProperty('oneOf');
    expect(json).not.toHaveProperty('anyOf');
    expect(json['required']).toEqual(['status']);
    expect(Object.keys(json['properties'] as object)).toEqual(expect.arrayContaining(['files', 'media', 'error']));
  });

  it('narrows in TypeScript: completed has files, media and ids; a failure its problem document', () => {
    const result = completed as GenerationResult;
    if (result.status === 'completed') {
      expectTypeOf(result.files).toEqualTypeOf<string[]>();
      expectTypeOf(result.flow_media_id).toEqualTypeOf<string>();
      expectTypeOf(result.flow_project_id).toEqualTypeOf<string>();
      expectTypeOf(result.media[0]!.file).toEqualTypeOf<string>();
    }
    if (result.status === 'failed' || result.status === 'cancelled' || result.status === 'indeterminate') {
      expectTypeOf(result.error.type).toEqualTypeOf<string>();
      expectTypeOf(result.error.retryable).toEqualTypeOf<boolean>();
    }
    if (result.status === 'pending') expectTypeOf(result.task_id).toEqualTypeOf<string>();
    expect(result.status).toBe('completed');
  });
});
