import { BadParameterError } from '@gflow/errors';

/** Flow ids (project, media, workflow, operation) as the API hands them out. */
export const FLOW_ID_PATTERN = /^[\w-]{1,128}$/;

export function assertFlowId(value: string, name: string): string {
  if (!FLOW_ID_PATTERN.test(value))
    throw new BadParameterError(`${name} must match ^[\\w-]{1,128}$.`, { extensions: { parameter: name } });
  return value;
}

/**
 * Profile names are plain names, never paths: the one rule of @gflow/flow-facts, so the catalog
 * takes exactly the profiles core resolves and the lease locks (SecurityError for a path,
 * BadParameterError for another malformed name).
 */
export { assertProfileName } from '@gflow/flow-facts';

/** Optional flow id: undefined and null pass through as null. */
export function optionalFlowId(value: string | null | undefined, name: string): string | null {
  return value === undefined || value === null ? null : assertFlowId(value, name);
}
