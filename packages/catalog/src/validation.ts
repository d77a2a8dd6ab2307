import { BadParameterError } from '@gflow/errors';

/** Flow ids (project, media, workflow, operation) as the API hands them out. */
export const FLOW_ID_PATTERN = /^[\w-]{1,128}$/;

/** Profile names are plain names, never paths. */
export const PROFILE_NAME_PATTERN = /^[\w.-]{1,64}$/;

export function assertFlowId(value: string, name: string): string {
  if (!FLOW_ID_PATTERN.test(value)) throw new BadParameterError(`${name} must match ^[\\w-]{1,128}$.`, { extensions: { parameter: name } });
  return value;
}

export function assertProfileName(value: string): string {
  if (!PROFILE_NAME_PATTERN.test(value) || value === '.' || value === '..') {
    throw new BadParameterError('profile must be a plain name (letters, digits, dot, dash, underscore; at most 64).', {
      extensions: { parameter: 'profile' },
    });
  }
  return value;
}

/** Optional flow id: undefined and null pass through as null. */
export function optionalFlowId(value: string | null | undefined, name: string): string | null {
  return value === undefined || value === null ? null : assertFlowId(value, name);
}
