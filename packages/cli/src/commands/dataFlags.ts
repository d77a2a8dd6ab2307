import { BadParameterError } from '@gflow/errors';
import { validateProfileName } from '@gflow/core';
import { PROFILE_FLAG, flag } from '../args/flagSpec.js';
import type { ParsedValues } from '../args/parseArgv.js';

export const DATA_PROFILE_FLAG = { ...PROFILE_FLAG, description: 'Only this profile (default: every profile).' };
export const LIMIT_FLAG = flag({ key: 'limit', kind: 'number', valueHint: '1-1000', defaultValue: 20, description: 'Rows per page, 1–1000.' });
export const OFFSET_FLAG = flag({ key: 'offset', kind: 'number', valueHint: 'N', defaultValue: 0, description: 'Rows to skip.' });

/** --limit 1..1000 and --offset ≥ 0, as integers (exit 2 otherwise). */
export function pageOf(values: ParsedValues): { limit: number; offset: number } {
  const limit = values['limit'];
  const offset = values['offset'];
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new BadParameterError(`--limit must be an integer from 1 to 1000; got ${JSON.stringify(limit)}.`, { extensions: { parameter: 'limit' } });
  }
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    throw new BadParameterError(`--offset must be an integer ≥ 0; got ${JSON.stringify(offset)}.`, { extensions: { parameter: 'offset' } });
  }
  return { limit, offset };
}

/** The validated --profile, as catalog options. */
export function profileOption(values: ParsedValues): { profile?: string } {
  return typeof values['profile'] === 'string' && values['profile'] !== 'default' ? { profile: validateProfileName(values['profile']) } : {};
}
