import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { PROTOTYPE_KEYS, refuseUnknownArguments } from './badParameterFromZod.js';

const schema = z.object({ prompt: z.string(), model: z.string().optional() });
const refusal = (input: unknown): unknown => {
  try {
    refuseUnknownArguments(schema, input);
    return undefined;
  } catch (error) {
    return error;
  }
};

describe('refuseUnknownArguments', () => {
  it('refuses an argument the operation does not take, by name', () => {
    expect(refusal({ prompt: 'a', seed: 42 })).toMatchObject({
      code: 'bad-parameter',
      extensions: { parameter: 'seed' },
    });
    expect(refusal({ prompt: 'a', model: 'nano2' })).toBeUndefined();
  });

  it.each(PROTOTYPE_KEYS)('refuses the prototype key %s as an own key (as JSON.parse makes it), issue 40', (key) => {
    const input: unknown = JSON.parse(`{"prompt":"a",${JSON.stringify(key)}:{"model":"veo"}}`);
    expect(refusal(input)).toMatchObject({
      code: 'bad-parameter',
      detail: expect.stringContaining(`Unknown parameter "${key}"`),
      extensions: { parameter: key },
    });
  });

  it('refuses an input whose prototype was swapped (zod would read the inherited model)', () => {
    const input = Object.create({ model: 'veo' }) as Record<string, unknown>;
    input['prompt'] = 'a';
    expect(schema.parse(input)).toMatchObject({ model: 'veo' });
    expect(refusal(input)).toMatchObject({ extensions: { parameter: '__proto__' } });
    expect(refusal(Object.assign(Object.create(null) as object, { prompt: 'a' }))).toBeUndefined();
  });

  it('refuses a prototype key even when a schema names it', () => {
    const odd = z.object({ constructor: z.string().optional() });
    expect(() => refuseUnknownArguments(odd, JSON.parse('{"constructor":"x"}'))).toThrow(
      /Unknown parameter "constructor"/,
    );
  });
});
