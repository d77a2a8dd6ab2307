import { BadParameterError } from '@gflow/errors';
import type { z } from 'zod';

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
