import { CancelledError, GflowError, type ProblemDetails, fromProblem } from '@gflow/errors';
import type { ProgressEvent } from '@gflow/core';
import { zodFlags, zodPositionals } from '../args/zodFlags.js';
import { type LeafOutput, defineGroup, defineLeaf } from '../framework/commandSpec.js';
import type { LeafContext } from '../framework/leafContext.js';
import { operationLeaf, requireOperation, withCliNames } from '../framework/operationLeaf.js';
import { opSchema } from '../framework/opSchema.js';
import { formatProgress } from '../output/progressReporter.js';
import { runNotes } from '../output/runSpend.js';
import { renderFields, renderListing } from '../output/table.js';
import { failedOutput, renderGeneration } from './generationFlags.js';

type Row = Readonly<Record<string, unknown>>;

const TASK_ID = { task_id: { valueHint: 'TASK_ID' } } as const;
const STATUS_HINT = 'pending|working|completed|failed|cancelled|indeterminate';

/** The fields of a task a terminal shows (the JSON has them all). */
export function taskFields(task: Row): Row {
  const runner = task['runner'] as { surface: string; pid: number } | null;
  return {
    task_id: task['task_id'],
    status: task['status'],
    phase: task['phase'],
    may_have_spent: task['may_have_spent'],
    ...(task['cancel_requested'] === true ? { cancel_requested: true } : {}),
    type: task['task_type'],
    command: task['command'],
    profile: task['profile'],
    // Where credits may have gone: the project and the media Flow named (the JSON has them too).
    project: task['flow_project_id'] ?? null,
    media:
      Array.isArray(task['flow_media_ids']) && task['flow_media_ids'].length ? task['flow_media_ids'].join(', ') : null,
    runner: runner ? `${runner.surface}, pid ${runner.pid}` : null,
    created: task['created_at'],
    updated: task['updated_at'],
  };
}

/** A shown task: its fields, then the files it wrote or the error it ended with. */
function renderTask(task: Row): string {
  const result = task['result'] as { files?: readonly string[] } | null;
  const error = task['error'] as { title?: string; detail?: string; remediation_hint?: string } | null;
  const lines = [renderFields(taskFields(task))];
  if (result?.files?.length) lines.push(`files:\n${result.files.map((f) => `  ${f}`).join('\n')}`);
  if (error) lines.push(`error: ${error.title ?? 'Error'}: ${error.detail ?? ''}`);
  if (error?.remediation_hint) lines.push(`hint: ${error.remediation_hint}`);
  return lines.join('\n');
}

const list = operationLeaf({
  name: 'list',
  description:
    'Queued generation tasks (--no-wait, MCP wait=false), newest first: status, last phase, whether credits may have been spent (JSON Lines with --json or when piped).',
  operation: 'listTasks',
  schema: opSchema('listTasks'),
  overrides: {
    profile: { valueHint: 'NAME', description: 'Only this profile (default: every profile).' },
    status: { valueHint: STATUS_HINT },
  },
  examples: ['gflow task list', 'gflow task list --status working', 'gflow task list --limit 100 --json'],
  render: (result) => {
    const r = result as { items: readonly Row[]; offset: number; has_more: boolean; next_offset: number | null };
    const table = renderListing(
      ['TASK', 'STATUS', 'PHASE', 'TYPE', 'PROFILE', 'CREATED'],
      r.items.map((t) => [t['task_id'], t['status'], t['phase'], t['task_type'], t['profile'], t['created_at']]),
      'No tasks in the queue.',
      r.offset,
    );
    return {
      jsonl: r.items,
      jsonlWhenPiped: true,
      text: r.has_more ? `${table}\nMore: --offset ${r.next_offset}` : table,
    };
  },
});

const show = operationLeaf({
  name: 'show',
  description:
    'One task: its row, the result envelope once completed (files), the problem details once it failed or was cancelled.',
  operation: 'showTask',
  schema: opSchema('showTask'),
  positionals: ['task_id'],
  overrides: TASK_ID,
  examples: ['gflow task show 6f1c…', 'gflow task show 6f1c… --json'],
  render: (result) => {
    const task = (result as { task: Row }).task;
    return { data: task, text: renderTask(task) };
  },
});

const cancel = operationLeaf({
  name: 'cancel',
  description:
    'Cancel a task: a pending one at once; a running one is asked to stop and settles cancelled before its submit click, indeterminate after it (credits may have been spent), never failed.',
  operation: 'cancelTask',
  schema: opSchema('cancelTask'),
  positionals: ['task_id'],
  overrides: {
    ...TASK_ID,
    timeout_seconds: {
      name: 'timeout',
      valueHint: 'SECONDS',
      description: 'How long to wait for a running task to settle after the request (0: do not wait).',
    },
  },
  examples: ['gflow task cancel 6f1c…', 'gflow task cancel 6f1c… --timeout 0 --json'],
  render: (result) => {
    const task = (result as { task: Row }).task;
    const note =
      task['status'] === 'working'
        ? '\nStop requested; the task is still running (it stops within a second of its next check).'
        : task['status'] === 'completed' || task['status'] === 'failed'
          ? `\nThe task had already ${String(task['status'])}; nothing was changed.`
          : '';
    return { data: task, text: `${renderTask(task)}${note}` };
  },
});

/**
 * The envelope a task ended with, as a generation command renders it: files and ids once
 * completed (exit 0); otherwise its error — with --json the envelope and the error's exit code,
 * on a terminal the usual Error/Hint lines (cancelled or indeterminate: 130).
 */
export function renderTaskOutcome(result: unknown, ctx: LeafContext): LeafOutput {
  const r = result as { status: string; error?: unknown };
  if (r.status === 'completed') return renderGeneration(result, ctx);
  const problem = r.error as Partial<ProblemDetails> | undefined;
  const failure =
    problem && typeof problem.type === 'string' && typeof problem.detail === 'string'
      ? fromProblem(problem as ProblemDetails)
      : new GflowError(`The task ended ${r.status}.`);
  return failedOutput(result, failure, ctx);
}

/** A progress line of a task being waited for: `task 6f1c2a3b: Submitting – … 12s`. */
export function taskProgressLine(taskId: string, event: ProgressEvent): string {
  return `task ${taskId.slice(0, 8)}: ${formatProgress(event)}\n`;
}

const waitSchema = opSchema('waitTask');
const waitOverrides = {
  ...TASK_ID,
  timeout_seconds: {
    name: 'timeout',
    valueHint: 'SECONDS',
    description:
      'Give up after this long (exit 9); the task is left to the process that runs it (the message says which). Default: until it settles.',
  },
  poll_ms: { hidden: true },
} as const;

const wait = defineLeaf({
  name: 'wait',
  description:
    'Wait for a task: its phases stream to stderr as the job records them; exits with the job’s code (0 completed, else its error’s). --json prints the final envelope.',
  operation: 'waitTask',
  positionals: () => zodPositionals(waitSchema(), ['task_id']),
  flags: () => zodFlags(waitSchema(), { overrides: waitOverrides, positionals: ['task_id'] }),
  examples: ['gflow task wait 6f1c…', 'gflow task wait 6f1c… --timeout 600 --json'],
  // Ctrl-C stops the waiting, not the task.
  handlesInterrupt: true,
  async run(ctx, values) {
    const gflow = await ctx.gflow({ loadCatalog: false });
    await requireOperation(gflow, 'waitTask', ctx.commandPath);
    const input = Object.fromEntries(
      ['task_id', 'timeout_seconds', 'poll_ms'].filter((k) => values[k] !== undefined).map((k) => [k, values[k]]),
    );
    const id = String(values['task_id'] ?? '');
    let result: unknown;
    try {
      // The flags as given: the operation's schema validates them (a missing task id is its 400).
      result = await gflow.run('waitTask', input as { task_id: string }, {
        signal: ctx.signal,
        onProgress: (event) => void ctx.io.stderr.write(taskProgressLine(id, event)),
      });
    } catch (error) {
      if (ctx.signal.aborted)
        throw new CancelledError(`Stopped waiting (Ctrl-C); task ${id} is left to the process that runs it.`, {
          remediationHint: `Wait again with 'gflow task wait ${id}', or stop it with 'gflow task cancel ${id}'.`,
          extensions: { task_id: id },
        });
      throw withCliNames(
        error,
        zodFlags(waitSchema(), { overrides: waitOverrides, positionals: ['task_id'] }),
        zodPositionals(waitSchema(), ['task_id']),
      );
    }
    return renderTaskOutcome(result, ctx);
  },
});

/** A resumed run, as its text says it: what it made now, each step's status, and where to look when one may have spent. */
function renderRun(result: unknown, ctx: LeafContext): LeafOutput {
  const run = result as {
    status: string;
    task_id?: string;
    made?: number;
    error?: unknown;
    items?: Row[];
    links?: Row[];
  };
  const steps = run.items ?? run.links ?? [];
  const lines = steps.map((step, i) => {
    const files = (step['files'] as readonly string[] | undefined) ?? (step['file'] ? [step['file'] as string] : []);
    const media = (step['flow_media_id'] as string | null | undefined) ?? null;
    return `  ${i + 1}. ${String(step['status'])}${media ? ` ${media}` : ''}${files.length ? ` ${files.join(', ')}` : ''}`;
  });
  const head = `run ${run.task_id ?? ''}: ${run.status}, ${run.made ?? 0} made now`;
  const output: LeafOutput = { data: result, text: [head, ...lines].join('\n') };
  if (run.status === 'completed') return output;
  const problem = run.error as Partial<ProblemDetails> | undefined;
  const failure =
    problem && typeof problem.type === 'string' && typeof problem.detail === 'string'
      ? fromProblem(problem as ProblemDetails)
      : new GflowError(`The run ended ${run.status}.`);
  const text = [output.text ?? '', ...runNotes(run)].join('\n');
  return { ...failedOutput(result, failure, ctx), text };
}

const resume = operationLeaf({
  name: 'resume',
  description:
    'Continue a run (a batch or a chain) that ended — failed, cancelled, killed — by its task id: done steps are kept, a step that may have been submitted is recovered by its ids (never submitted twice), only steps that never reached their submit are submitted (they may spend).',
  operation: 'resumeTask',
  schema: opSchema('resumeTask'),
  overrides: { ...TASK_ID },
  positionals: ['task_id'],
  examples: ['gflow task resume 6f1c…', 'gflow task resume 6f1c… --json'],
  render: (result, _values, ctx) => renderRun(result, ctx),
});

export const taskCommand = defineGroup({
  name: 'task',
  description: 'Queued tasks and runs (--no-wait, batches, chains): list, show, wait, cancel, resume.',
  children: { list, show, wait, cancel, resume },
  examples: [
    'gflow image t2i "a red fox" --no-wait --json',
    'gflow task wait 6f1c…',
    'gflow task list --status pending',
    'gflow task cancel 6f1c…',
  ],
});
