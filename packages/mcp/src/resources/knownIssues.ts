/** One `### ` section of KNOWN_ISSUES.md. */
export interface KnownIssue {
  readonly slug: string;
  readonly title: string;
  readonly status: string;
  /** The section's markdown, heading included. */
  readonly text: string;
}

/** Largest section served by gflow://docs/known-issues/{slug}. */
export const SECTION_CAP_BYTES = 16 * 1024;
/** Largest index served by gflow://docs/known-issues. */
export const INDEX_CAP_BYTES = 8 * 1024;

/** The lowercased title with every run of non-alphanumerics turned into one `-`. */
export function slugOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const STATUS_LINE = /^\s*(?:[-*]\s*)?(?:\*\*|__)?Status(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.+?)\s*$/i;

/** Splits KNOWN_ISSUES.md into its `### ` sections (a `#`/`##` heading also ends a section). */
export function parseKnownIssues(markdown: string): KnownIssue[] {
  const issues: KnownIssue[] = [];
  let current: { title: string; lines: string[] } | undefined;
  const flush = (): void => {
    if (!current) return;
    const text = current.lines.join('\n').trimEnd();
    const statusLine = current.lines.map((line) => STATUS_LINE.exec(line)).find((m) => m !== null);
    const status = statusLine?.[1]?.replace(/\*\*|__/g, '').trim() ?? 'unknown';
    issues.push({ slug: slugOf(current.title), title: current.title, status, text });
    current = undefined;
  };
  let inFence = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (!inFence && /^#{1,3}\s/.test(line)) {
      flush();
      const heading = /^###\s+(.+?)\s*#*\s*$/.exec(line);
      if (heading?.[1]) current = { title: heading[1], lines: [line] };
      continue;
    }
    current?.lines.push(line);
  }
  flush();
  return issues;
}

function clipBytes(text: string, cap: number, note: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= cap) return text;
  const room = cap - Buffer.byteLength(note, 'utf8');
  // Cut on a character boundary: drop a partial UTF-8 sequence at the end.
  let end = Math.max(room, 0);
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString('utf8') + note;
}

/** The bounded index: one line per issue, `slug — title — Status: …`. */
export function knownIssuesIndex(issues: readonly KnownIssue[]): string {
  const lines = [
    '# gflow known issues (index)',
    'Read one issue in full with resources/read gflow://docs/known-issues/{slug}.',
    '',
    ...issues.map((issue) => `- ${issue.slug} — ${issue.title.slice(0, 160)} — Status: ${issue.status.slice(0, 80)}`),
  ];
  return clipBytes(lines.join('\n') + '\n', INDEX_CAP_BYTES, '\n… (index truncated)\n');
}

/** One issue's full text, capped at 16 KB. */
export function knownIssueText(issue: KnownIssue): string {
  return clipBytes(issue.text + '\n', SECTION_CAP_BYTES, '\n… (truncated at 16 KB; see docs/KNOWN_ISSUES.md)\n');
}

/** The slug of the live section on flow files that did not load (gflow://docs/known-issues/flows). */
export const FLOWS_ISSUE_SLUG = 'flows';

/** One line of that section: which file (home shown as ~), where in it, and why. */
export interface FlowIssueLine {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
  readonly severity: 'error' | 'warning';
}

/**
 * The live known issue of this server's flows: every flow file that did not load (or an entry
 * left out), with file, line and reason, as of the last reload. Listed first in the index while
 * flows are on, so an agent whose flow tool vanished can find out why.
 */
export function flowProblemsIssue(lines: readonly FlowIssueLine[]): KnownIssue {
  const title = 'Flow files that did not load';
  const rejected = new Set(lines.filter((l) => l.severity === 'error').map((l) => l.file)).size;
  const leftOut = lines.filter((l) => l.severity === 'warning').length;
  const status =
    lines.length === 0
      ? 'none (every flow file loaded)'
      : `${rejected} rejected, ${leftOut} entries left out (live; fix the file and it reloads)`;
  const body =
    lines.length === 0
      ? ['Every flow file in the flows folders loaded.']
      : [
          'A rejected file keeps its previously loaded version live (if it had one); a left-out entry is one the server cannot offer (e.g. a spending tool under no-spend).',
          '',
          ...lines
            .slice(0, 200)
            .map((l) => `- ${l.severity === 'error' ? 'rejected' : 'left out'}: ${l.file}:${l.line}: ${l.reason}`),
        ];
  return {
    slug: FLOWS_ISSUE_SLUG,
    title,
    status,
    text: [`### ${title}`, '', `Status: ${status}`, '', ...body].join('\n'),
  };
}
