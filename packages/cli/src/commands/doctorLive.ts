// `gflow doctor --live`: the CLI's rendering of core's checkFlow (the free live canary).
import type { LeafOutput } from '../framework/commandSpec.js';
import { renderTable } from '../output/table.js';

interface Finding {
  readonly id: string;
  readonly status: string;
  readonly expected: string;
  readonly found: string;
}

/** What checkFlow returns (its output schema in core), as far as the text reads it. */
export interface FlowCheckResult {
  readonly status: 'ok' | 'drifted';
  readonly exit_code: number;
  readonly profile: string;
  readonly project_id: string | null;
  readonly project_created: boolean;
  readonly arm: string;
  readonly build_label: string | null;
  readonly summary: { readonly ok: number; readonly drifted: number; readonly not_offered: number };
  readonly capabilities: readonly Finding[];
  readonly replies: readonly (Finding & { readonly seen: number })[];
  readonly capture: { readonly dir: string; readonly files: readonly string[] } | null;
}

function head(r: FlowCheckResult): string {
  const project =
    r.project_id === null ? 'no project' : `${r.project_created ? 'new ' : ''}scratch project ${r.project_id}`;
  const composer = r.arm === 'none' ? 'no composer gflow knows' : `${r.arm} composer`;
  return `Flow on profile ${r.profile} (${project}, ${composer}${r.build_label ? `, release ${r.build_label}` : ''}); nothing was submitted.`;
}

/** The check as a table, what drifted spelled out under it, and the exit code: 0, or 41 on drift. */
export function renderFlowCheck(r: FlowCheckResult): LeafOutput {
  const rows = [
    ...r.capabilities.map((c) => [c.id, c.status.replace('_', ' '), c.found]),
    ...r.replies.map((c) => [c.id, c.status.replace('_', ' '), c.found]),
  ];
  const drifted = [...r.capabilities, ...r.replies].filter((c) => c.status === 'drifted');
  const detail = drifted.map((c) => `  ${c.id}: expected ${c.expected}; found ${c.found}`);
  const capture = r.capture ? `\nCapture bundle: ${r.capture.dir} (${r.capture.files.join(', ')})` : '';
  const overall =
    r.status === 'ok'
      ? `Overall: ok (${r.summary.ok} ok, ${r.summary.not_offered} not offered)`
      : `Overall: drifted — ${drifted.length} of what gflow depends on changed; paid runs may fail there (exit ${r.exit_code})`;
  const text = `${head(r)}\n\n${renderTable(['CAPABILITY', 'STATUS', 'FOUND'], rows)}${
    detail.length ? `\n\nDrifted:\n${detail.join('\n')}` : ''
  }${capture}\n\n${overall}`;
  return { data: r, text, ...(r.exit_code === 0 ? {} : { exitCode: r.exit_code }) };
}
