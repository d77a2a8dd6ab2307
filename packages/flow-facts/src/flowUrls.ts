/** The origin of Flow's web app. */
export const FLOW_ORIGIN = 'https://flow.google.com';

/** The flow.google.com project editor URL of a project id. */
export function flowProjectUrl(projectId: string): string {
  return `${FLOW_ORIGIN}/project/${encodeURIComponent(projectId)}`;
}
