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
 * Arguments an operation does not take (`seed` on generateImage): a refusal naming them, never
 * dropped in silence. Only the top level of an object schema is checked (the one surfaces expose).
 */
export function refuseUnknownArguments(schema: z.ZodType, input: unknown): void {
  if (!(schema instanceof z.ZodObject) || typeof input !== 'object' || input === null || Array.isArray(input)) return;
  const known = Object.keys(schema.shape);
  const unknown = Object.keys(input).filter((key) => !known.includes(key));
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
