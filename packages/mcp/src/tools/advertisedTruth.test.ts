// Every tool's advertised input schema says what core enforces (issue 27, "schemas that hide what
// is enforced"): each property's enum, bounds and default are probed against the operation's own
// zod field, and a property advertised without a bound or an enum must not be refusing such values.
import { loadOperations } from '@gflow/core/surfaces';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { advertisedSchema } from './advertisedSchema.js';

// Every operation, loaded (the surfaces' registry loads them on demand).
const OPERATIONS = await loadOperations();

interface Property {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
}

const accepts = (field: z.ZodType, value: unknown): boolean => field.safeParse(value).success;

const tools = OPERATIONS.filter((op) => op.input instanceof z.ZodObject).map((op) => {
  const json = advertisedSchema(op.input, 'input')['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) as {
    properties?: Record<string, Property>;
    additionalProperties?: unknown;
  };
  return { op, json, shape: (op.input as z.ZodObject).shape as Record<string, z.ZodType> };
});

describe('advertised input schemas are what core validates', () => {
  it('covers the operations', () => {
    expect(tools.length).toBeGreaterThan(30);
  });

  it.each(tools.map((t) => [t.op.mcpName, t] as const))('%s', (_name, { json, shape }) => {
    expect(json.additionalProperties).toBe(false);
    for (const [key, field] of Object.entries(shape)) {
      const p = json.properties?.[key];
      expect(p, key).toBeDefined();
      if (p === undefined) continue;
      const types = [p.type].flat();
      if (p.enum !== undefined) {
        for (const value of p.enum) expect(accepts(field, value), `${key}=${String(value)}`).toBe(true);
        expect(accepts(field, '__none_of_them__'), `${key} beyond its enum`).toBe(false);
      } else if (types.includes('string') && p.pattern === undefined && p.minLength === undefined) {
        // A free string: a plain word is not refused (or the refusal is hidden).
        expect(accepts(field, 'word'), `${key} hides a constraint on strings`).toBe(true);
      }
      if (types.includes('integer') || types.includes('number')) {
        if (p.minimum !== undefined) {
          expect(accepts(field, p.minimum), `${key}=min`).toBe(true);
          expect(accepts(field, p.minimum - 1), `${key} below min`).toBe(false);
        }
        if (p.maximum !== undefined) {
          expect(accepts(field, p.maximum), `${key}=max`).toBe(true);
          expect(accepts(field, p.maximum + 1), `${key} above max`).toBe(false);
        }
        const lowest = p.minimum ?? -(2 ** 53 - 1);
        const highest = p.maximum ?? 2 ** 53 - 1;
        // Advertised bounds are the real ones: the extremes they allow are accepted.
        expect(accepts(field, lowest), `${key}=${lowest}`).toBe(true);
        expect(accepts(field, highest), `${key}=${highest}`).toBe(true);
      }
      if (field instanceof z.ZodDefault) expect(p.default, `${key} default`).toEqual(field.parse(undefined));
    }
  });
});
