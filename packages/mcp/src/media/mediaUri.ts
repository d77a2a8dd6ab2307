/** The URI template of a catalogued asset's bytes. */
export const MEDIA_TEMPLATE = 'gflow://media/{media_id}';
/** The URI template of a catalogued project's summary. */
export const PROJECT_TEMPLATE = 'gflow://projects/{project_id}';

export function mediaUri(mediaId: string): string {
  return `gflow://media/${mediaId}`;
}

export function projectUri(projectId: string): string {
  return `gflow://projects/${projectId}`;
}
