import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';

/** A temporary flows directory holding the given files (relative path → text). */
export function makeFlowDir(files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-flows-'));
  writeFiles(dir, files);
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

/** Writes a file via a temp file + rename, like most editors save. */
export function saveAtomically(file: string, text: string): void {
  const temp = `${path.dirname(file)}/.${path.basename(file)}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, file);
}

export const LIST_CHANGED = [
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
] as const;
export type ListChangedMethod = (typeof LIST_CHANGED)[number];

/** Records the list_changed notifications a client receives, in order. */
export function recordListChanged(client: Client): { readonly received: ListChangedMethod[]; clear(): void } {
  const received: ListChangedMethod[] = [];
  for (const method of LIST_CHANGED) client.setNotificationHandler(method, () => void received.push(method));
  return { received, clear: () => void received.splice(0) };
}

/**
 * Waits until `check` holds, then `settleMs` more so late extras would show up too. `timeoutMs` only
 * catches a watcher that never fires (a loaded 2-core machine can take seconds to see an edit).
 */
export async function settle(check: () => boolean, settleMs = 600, timeoutMs = 90_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await new Promise((resolve) => setTimeout(resolve, settleMs));
}

export const textOf = (contents: ReadonlyArray<object>): string => {
  const first = contents[0];
  return first && 'text' in first ? String(first.text) : '';
};

/** A flow exercising every entry kind with read-only operations only. */
export const DEMO_FLOW = `
name: demo
entries:
  - mcp_tool:
      name: model_brief
      description: Counts the image models, then previews a prompt tool on a prompt naming the count.
      input_schema:
        type: object
        properties:
          subject: { type: string, minLength: 1 }
          tool: { type: string, default: creative-director }
          shots: { type: integer, minimum: 1, maximum: 4, default: 2 }
        required: [subject]
        additionalProperties: false
      steps:
        - name: models
          operation: listModels
        - name: preview
          operation: gflow_run_prompt_tools
          arguments:
            prompt: "{{arguments.subject}} in {{arguments.shots}} shots, {{steps.models.image.models.length}} models"
            tools:
              - name: "{{arguments.tool}}"
      result:
        expanded: "{{steps.preview.expanded}}"
        shots: "{{arguments.shots}}"
        first_model: "{{steps.models.image.models.[0].name}}"
        aspects: "{{steps.models.image.aspects}}"
  - mcp_tool:
      name: voices_then_bad_tool
      description: Second step fails (unknown prompt tool).
      steps:
        - name: voices
          operation: characterVoices
        - name: expand
          operation: runPromptTools
          arguments:
            prompt: "{{steps.voices.count}} voices"
            tools: [{ name: no-such-tool }]
  - mcp_resource:
      name: guide
      description: A concrete resource read from a file.
      content: { resource: docs/guide.md }
  - mcp_resource:
      name: inline_note
      uri: "https://example.com/notes/inline"
      mime_type: text/plain
      content: "inline {{not rendered}}"
  - mcp_resource:
      name: account
      uri_template: "gflow://account/{id}/summary"
      mime_type: text/markdown
      content: |
        # Account {{id}}
        Loaded via templated resource.
      parameters:
        - name: id
          completion: { resource: completions/ids.txt }
  - mcp_prompt:
      name: explain
      description: One-message prompt.
      arguments:
        - name: query
          description: The text to explain.
          required: true
        - name: tone
          default: formal
          completion: { values: [formal, casual, urgent, Fun] }
      template: "Explain ({{arguments.tone}}): {{arguments.query}}"
  - mcp_prompt:
      name: classify
      arguments:
        - name: message
          required: true
        - name: label
          completion: { resource: completions/labels.txt }
      messages:
        - { role: user, content: "How much does the enterprise plan cost?" }
        - { role: assistant, content: sales }
        - { role: user, content: "{{arguments.message}}" }
`;

export const DEMO_FILES: Record<string, string> = {
  'demo.yaml': DEMO_FLOW,
  'docs/guide.md': '# Guide\nRead me.\n',
  'completions/ids.txt': [
    '# account ids',
    '',
    '  001Qy0abc  ',
    '001Qy0abd',
    '002Zz',
    ...Array.from({ length: 150 }, (_, i) => `9${String(i).padStart(3, '0')}`),
  ].join('\n'),
  'completions/labels.txt': 'sales\nsupport\n# comment\n\nother\nSupplies\n',
};
