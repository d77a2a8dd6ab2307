import { BadParameterError } from '@gflow/errors';
import { FLOW_ID } from '@gflow/core/surfaces';

/** A Flow id (letters, digits, `_`, `-`, ≤ 128) or a usage error (exit 2). */
export function assertFlowIdLike(value: string): string {
  if (!FLOW_ID.test(value))
    throw new BadParameterError('A media id is 1–128 letters, digits, "_" or "-".', {
      extensions: { parameter: 'media_id' },
    });
  return value;
}
