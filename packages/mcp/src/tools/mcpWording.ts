// Core's hints are written for every surface and name CLI commands where a person would type one.
// On MCP an agent has tools and resources instead: this adapter restates those hints in MCP's terms
// (the errors package decides what a hint says; this only translates how it is named).

/** CLI wording → its MCP route, most specific first. */
const ROUTES: ReadonlyArray<readonly [RegExp, string]> = [
  [/gflow_download_media \(gflow data download MEDIA_ID\)/g, 'gflow_download_media'],
  [/gflow data download MEDIA_ID --out DIR \(gflow_download_media\)/g, 'gflow_download_media'],
  [/'?gflow data download ([\w-]{8,})'?/g, 'gflow_download_media {"media_id": "$1"}'],
  [/\(gflow data download(?: MEDIA_ID)?\)/g, '(gflow_download_media)'],
  [/gflow data download(?: MEDIA_ID)?/g, 'gflow_download_media'],
  [/'?gflow data sync'?/g, 'gflow_sync_catalog'],
  [/\(gflow data list images\)/g, '(the gflow://media/… resources of resources/list)'],
  [/'?gflow task cancel ([\w-]{8,})'?/g, 'gflow_task_cancel {"task_id": "$1"}'],
  [/'?gflow task cancel ID'?/g, 'gflow_task_cancel'],
  [/'?gflow task wait ([\w-]{8,})'?/g, 'gflow_task_wait {"task_id": "$1"}'],
  [/\bpass --force to replace it\b/g, 'pass overwrite: true to replace it'],
  [
    /Run the command with '--help' to see its arguments\./g,
    "Read the tool's inputSchema (tools/list) for its arguments.",
  ],
];

/** A hint or message as an MCP agent should read it. */
export function mcpWording(text: string): string {
  let out = text;
  for (const [pattern, route] of ROUTES) out = out.replace(pattern, route);
  return out;
}

/** An error body (problem details + message) with its hint and message in MCP's terms. */
export function withMcpWording<T extends Record<string, unknown>>(body: T): T {
  const hint = body['remediation_hint'];
  const message = body['message'];
  return {
    ...body,
    ...(typeof hint === 'string' ? { remediation_hint: mcpWording(hint) } : {}),
    ...(typeof message === 'string' ? { message: mcpWording(message) } : {}),
  };
}
