/**
 * Flow ids (projects, media, entities): letters, digits, `_` and `-`, ≤ 128, so they cannot traverse
 * paths. A module of its own (params.ts builds its schemas with it): the surfaces import the
 * pattern without building any schema.
 */
export const FLOW_ID = /^[\w-]{1,128}$/;
