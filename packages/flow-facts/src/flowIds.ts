/**
 * Flow's project, media and workflow ids are UUIDs (flow-wire §3a: a record's first three slots;
 * the submit replies, the grid tiles' `data-media-id`, the editor URL). What gflow reads from the
 * page it holds to this shape, so an id a user gives that is not one can never name anything in
 * Flow: it is refused before any browser work (exit 2). Characters' entity ids were never captured
 * in this form, so they are not held to it.
 */
export const FLOW_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` has the shape of a Flow project, media or workflow id. */
export function isFlowUuid(value: unknown): value is string {
  return typeof value === 'string' && FLOW_UUID.test(value);
}
