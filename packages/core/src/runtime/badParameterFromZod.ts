import { BadParameterError } from '@gflow/errors';
import { z } from 'zod';

/** A 400 naming the first bad parameter and why, from a zod error. */
export function badParameterFromZod(error: z.ZodError): BadParameterError {
  const issue = error.issues[0];
  const where = issue && issue.path.length ? issue.path.join('.') : 'input';
  return new BadParameterError(`${where}: ${issue?.message ?? 'invalid'}`, {
    extensions: {
      parameter: where,
      // The offending key as a path, so an adapter can name it its own way (the CLI says --flag).
      parameter_path: issue ? issue.path.map(String) : [],
      issues: error.issues.slice(0, 5).map((i) => ({ path: i.path.join('.'), message: i.message })),
    },
  });
}

/**
 * Keys that name an object's prototype. Never an argument: copied into an object, `__proto__`
 * replaces its prototype (and zod drops it in silence), and `constructor` / `prototype` shadow
 * what every object inherits. Every unknown-argument check refuses them (issue 40).
 */
export const PROTOTYPE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/**
 * Arguments an operation does not take (`seed` on generateImage): a refusal naming them, never
 * dropped in silence. Only the top level of an object schema is checked (the one surfaces expose).
 * Prototype keys are refused even when a schema would list them, and so is an input whose
 * prototype is not a plain object's (`{ __proto__: { … } }` written in code: zod would read the
 * inherited members as arguments).
 */
export function refuseUnknownArguments(schema: z.ZodType, input: unknown): void {
  if (!(schema instanceof z.ZodObject) || typeof input !== 'object' || input === null || Array.isArray(input)) return;
  const known = Object.keys(schema.shape).filter((key) => !PROTOTYPE_KEYS.includes(key));
  const prototype: unknown = Object.getPrototypeOf(input);
  const swapped = prototype !== Object.prototype && prototype !== null && !Object.hasOwn(input, '__proto__');
  const unknown = [...(swapped ? ['__proto__'] : []), ...Object.keys(input).filter((key) => !known.includes(key))];
  if (unknown.length === 0) return;
  const names = unknown.map((k) => `"${k.slice(0, 60)}"`).join(', ');
  throw new BadParameterError(
    `${unknown.length === 1 ? 'Unknown parameter' : 'Unknown parameters'} ${names}; this operation takes ${known.join(', ') || 'no parameters'}.`,
    {
      extensions: {
        parameter: unknown[0],
        parameter_path: [unknown[0]],
        issues: unknown.slice(0, 5).map((k) => ({ path: k, message: 'unknown parameter' })),
      },
    },
  );
}
