import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { advertisedSchema, deepFreeze } from './advertisedSchema.js';

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

describe('advertisedSchema', () => {
  const schema = z.object({
    prompt: z.string().describe('What to make'),
    count: z.number().int().min(1).max(4).default(1),
    tags: z.array(z.object({ name: z.string() })).optional(),
  });

  it('converts once and hands every caller the same frozen JSON Schema', () => {
    const wrapper = advertisedSchema(schema, 'input');
    expect(advertisedSchema(schema, 'input')).toBe(wrapper);
    const jsonSchema = wrapper['~standard'].jsonSchema;
    const first = jsonSchema.input({ target: 'draft-2020-12' });
    expect(jsonSchema.input({ target: 'draft-2020-12' })).toBe(first);
    expect(first).toMatchObject({
      type: 'object',
      required: ['prompt'],
      properties: { prompt: { type: 'string', description: 'What to make' } },
    });
    expect(isDeepFrozen(first)).toBe(true);
    expect(() => {
      (first['properties'] as Record<string, unknown>)['extra'] = {};
    }).toThrow(TypeError);
    expect(jsonSchema.input({ target: 'draft-07' })).not.toBe(first);
  });

  it('validates nothing itself (the error funnel parses with the operation schema)', () => {
    expect(advertisedSchema(schema, 'input')['~standard'].validate({ nope: true })).toEqual({ value: { nope: true } });
  });

  it('deepFreeze freezes nested arrays and objects and leaves primitives alone', () => {
    const value = deepFreeze({ a: [{ b: 1 }], c: 'x' });
    expect(isDeepFrozen(value)).toBe(true);
    expect(deepFreeze(3)).toBe(3);
  });
});
