import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';

/**
 * Wraps an operation's zod schema so the SDK advertises its JSON Schema in
 * tools/list but does not validate arguments itself: validation happens
 * inside the error funnel (core's `gflow.run` parses with the same schema),
 * so a bad argument comes back as gflow's 400 `bad-parameter` envelope rather
 * than the SDK's plain "Input validation error" text.
 */
export function advertisedSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): StandardSchemaWithJSON<unknown, unknown> {
  const json = (options?: { readonly target?: string }): Record<string, unknown> =>
    z.toJSONSchema(schema, { io, target: zodTarget(options?.target), unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    '~standard': {
      version: 1,
      vendor: 'gflow',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: json, output: json },
    },
  };
}

function zodTarget(target: string | undefined): 'draft-2020-12' | 'draft-07' | 'openapi-3.0' {
  return target === 'draft-07' || target === 'openapi-3.0' ? target : 'draft-2020-12';
}

/** The JSON Schema root type of a schema, or undefined when it cannot be converted. */
export function jsonSchemaRootType(schema: z.ZodType, io: 'input' | 'output'): unknown {
  try {
    return (z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as { type?: unknown }).type;
  } catch {
    return undefined;
  }
}
