// The two files of an incident bundle that are made from the others: browser.json (what browser
// ran, with its launch arguments) and report.md (what a person reads and pastes into an issue).
// Both are built from values already redacted by the bundle writer.

/** The browser a failed operation ran in, as gflow launched it. */
export interface IncidentBrowser {
  /** The executable gflow launched (GFLOW_CLI_BROWSER_EXECUTABLE or the one it found); null when unknown. */
  readonly executable: string | null;
  readonly headless: boolean;
  /** Extra launch arguments (GFLOW_CLI_BROWSER_ARGS); redacted like the rest. */
  readonly args: readonly string[];
}

/** What report.md is made of (the manifest's and the page's redacted fields). */
export interface IncidentReportInput {
  readonly incidentId: string;
  readonly createdAt: string;
  readonly operation: string;
  readonly driverOperation: string | null;
  readonly phase: string | null;
  readonly mayHaveSpent: boolean;
  readonly error: { readonly code: string; readonly title: string; readonly detail: string; readonly exitCode: number };
  readonly url: string | null;
  readonly title: string | null;
  readonly network: ReadonlyArray<{
    readonly rpcIds: readonly string[];
    readonly endpoint: string;
    readonly status: number | null;
    readonly outcome: string;
    readonly durationMs: number | null;
  }>;
  readonly problems: readonly string[];
  readonly browser: IncidentBrowser | null;
  readonly files: readonly string[];
}

/** How many of the last network entries the report lists (network.json has them all). */
export const REPORT_NETWORK_ROWS = 25;

const cell = (value: string): string => value.replace(/\|/g, '\\|').replace(/\s+/g, ' ');

/** report.md: what was asked, what happened, the page, the calls seen, the browser. */
export function incidentReport(input: IncidentReportInput): string {
  const lines = [
    `# gflow incident ${input.incidentId}`,
    '',
    `- **When:** ${input.createdAt}`,
    `- **Operation:** ${input.operation}${input.driverOperation ? ` (${input.driverOperation})` : ''}`,
    `- **Last phase:** ${input.phase ?? 'unknown'}`,
    `- **Credits may have been spent:** ${input.mayHaveSpent ? 'yes — look in the Flow project before retrying' : 'no'}`,
    '',
    '## What happened',
    '',
    `**${input.error.title}** (\`${input.error.code}\`, exit ${input.error.exitCode})`,
    '',
    input.error.detail,
    '',
    '## The page',
    '',
    `- **URL:** ${input.url ?? 'unknown'}`,
    `- **Title:** ${input.title ?? 'unknown'}`,
    '',
    `## Calls seen (last ${Math.min(REPORT_NETWORK_ROWS, input.network.length)} of ${input.network.length})`,
    '',
  ];
  const rows = input.network.slice(-REPORT_NETWORK_ROWS);
  if (rows.length === 0) lines.push('None recorded.');
  else {
    lines.push('| rpc | endpoint | status | outcome | ms |', '|---|---|---|---|---|');
    for (const r of rows)
      lines.push(
        `| ${cell(r.rpcIds.join(', ') || '–')} | ${cell(r.endpoint)} | ${r.status ?? '–'} | ${r.outcome} | ${r.durationMs ?? '–'} |`,
      );
  }
  lines.push('', '## Browser', '');
  if (input.browser === null) lines.push('Unknown.');
  else
    lines.push(
      `- **Executable:** ${input.browser.executable ?? 'found by gflow at launch'}`,
      `- **Headless:** ${input.browser.headless ? 'yes' : 'no'}`,
      `- **Extra arguments:** ${input.browser.args.length ? input.browser.args.map((a) => `\`${a}\``).join(' ') : 'none'}`,
    );
  if (input.problems.length) lines.push('', '## Not captured', '', ...input.problems.map((p) => `- ${p}`));
  lines.push(
    '',
    '## Files',
    '',
    ...input.files.map((f) => `- \`${f}\``),
    '',
    'Secrets, tokens and local paths are redacted in every file but `sensitive/screenshot.png`: look at the screenshot before you share it.',
    '',
  );
  return lines.join('\n');
}
