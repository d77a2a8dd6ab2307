import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { portabilityWarnings, portableSchema } from './portableSchema.js';

describe('portableSchema', () => {
  it('turns a type array into an anyOf, keeping annotations beside it and the rest in the branches', () => {
    expect(portableSchema({ type: ['string', 'null'], description: 'the project', minLength: 1 })).toEqual({
      description: 'the project',
      anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }],
    });
  });

  it("types what said nothing: any value as an anyOf of every type, a loose object's extra keys as true", () => {
    const any = portableSchema({
      type: 'object',
      properties: { error: { description: 'why' } },
      additionalProperties: {},
    });
    expect(any['additionalProperties']).toBe(true);
    expect((any['properties'] as Record<string, { anyOf: Array<{ type: string }> }>)['error']).toMatchObject({
      description: 'why',
      anyOf: expect.arrayContaining([{ type: 'object' }, { type: 'null' }]),
    });
    expect(portableSchema({ const: 'ok' })).toEqual({ const: 'ok', type: 'string' });
  });

  it('leaves a portable schema as it is and reaches into every nesting', () => {
    const schema = z.toJSONSchema(
      z.object({
        a: z.array(z.object({ b: z.number().nullable(), c: z.unknown() })),
        d: z.union([z.string(), z.record(z.string(), z.unknown())]),
      }),
    ) as Record<string, unknown>;
    expect(portabilityWarnings(schema).length).toBeGreaterThan(0);
    const portable = portableSchema(schema);
    expect(portabilityWarnings(portable)).toEqual([]);
    expect(portableSchema(portable)).toEqual(portable);
  });

  it('the check names each place a single-type host trips on', () => {
    expect(
      portabilityWarnings({
        type: 'object',
        properties: { x: { type: ['string', 'null'] }, y: {}, z: { type: 'array' } },
      }),
    ).toEqual([
      '$.properties.x: a type array ["string","null"]',
      '$.properties.y: no type and no anyOf',
      '$.properties.z: an array without items',
    ]);
  });
});
