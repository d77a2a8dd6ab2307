/**
 * Flow ids (projects, media, entities): letters, digits, `_` and `-`, ≤ 128, so they cannot traverse
 * paths. A module of its own (params.ts builds its schemas with it): the surfaces and the runtime
 * (its gallery files) import the patterns without building any schema.
 */
export const FLOW_ID = /^[\w-]{1,128}$/;

/** A run's task id (a batch's, a chain's): what resume_from and the task tools take. */
export const RUN_ID = /^[\w-]{1,128}$/;
