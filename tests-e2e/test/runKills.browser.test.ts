// Journey: runs of many paid steps survive kills without paying twice (issue 38). A 5-prompt batch
// and a 3-link chain are stopped at a random moment — a step (position and phase picked by a
// seeded generator) reached, then SIGKILL of the whole process group or Ctrl-C (SIGINT) — and
// resumed with `gflow task resume`: the simulator received exactly one submit per prompt and per
// link every time, and every resumed run ends completed with all its files. A step that may have
// been submitted but whose project lists nothing is refused as unconfirmed (the simulator then
// received nothing for it) until the user consents with --resubmit-unconfirmed.
// Over MCP, a batch and a chain started with the Tasks extension are cancelled mid-run with
// tasks/cancel: nothing is submitted after the cancel, the task ends cancelled (or indeterminate),
// and the steps that reached their submit are named.
// GFLOW_KILL_TRIALS (default 2) sets the trials per kind; tests-e2e/scripts/killStress.mjs runs 20.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, prng, waitFor } from '@gflow/testkit';
import type { ServeProcess } from '@gflow/testkit/cli';
import { TASKS_CAPABILITIES, connectTaskRequester, modernRequest } from '@gflow/testkit/mcp';
import { useSandbox } from '@gflow/testkit/sandbox';
import { type RunRow, runRows } from './helpers/catalog.js';

const e2e = useSandbox({ seed: 'journey-run-kills', signIn: true });
const TRIALS = Number(process.env['GFLOW_KILL_TRIALS'] ?? 2);
/** A recovery looks at the project for a few seconds, not the minute real Flow may need (the simulator is fast). */
const ENV = { GFLOW_CLI_RECOVERY_LISTING_SECONDS: '3' };
const PHASES = ['claimed', 'configuring', 'submitting', 'submitted', 'generating', 'downloading'] as const;

/** How many submits the simulator received that carry this prompt (prompts are unique per trial). */
const submitsOf = (prompt: string): number =>
  e2e.sim.received.submits().filter((call) => String(call.inner).includes(prompt)).length;

const PHASE_ORDER: readonly string[] = [
  'claimed',
  'started',
  'opening',
  'uploading',
  'configuring',
  'submitting',
  'submitted',
  'generating',
  'downloading',
  'recording',
];

/** Whether a step reached a phase (or went past it). */
function reached(step: RunRow['steps'][number] | undefined, phase: string): boolean {
  if (step === undefined) return false;
  if (step.status !== 'working') return step.status !== 'pending';
  return PHASE_ORDER.indexOf(step.checkpoint?.phase ?? '') >= PHASE_ORDER.indexOf(phase);
}

interface RunEnvelope {
  status: string;
  task_id: string;
  error?: { detail?: string; listed?: string; task_id?: string };
  items?: Array<{ status: string; files?: string[] }>;
  links?: Array<{ status: string; file?: string | null }>;
}

/** `gflow task resume` until the run completes; an unconfirmed step (nothing listed, nothing received) is resubmitted with consent. */
async function resumeToEnd(runId: string, prompts: readonly string[]): Promise<RunEnvelope> {
  let run = json(
    await e2e.cli(['task', 'resume', runId, '--sandbox', '--json'], { env: ENV, timeoutMs: 300_000 }),
  ) as unknown as RunEnvelope;
  if (run.status !== 'completed' && run.error?.listed === 'none') {
    // The kill fell between the submit's checkpoint and its request leaving: Flow never received it.
    expect(prompts.map(submitsOf).filter((n) => n === 0).length, JSON.stringify(run.error)).toBeGreaterThan(0);
    run = json(
      await e2e.cli(['task', 'resume', runId, '--resubmit-unconfirmed', '--sandbox', '--json'], {
        env: ENV,
        timeoutMs: 300_000,
      }),
    ) as unknown as RunEnvelope;
  }
  return run;
}

async function killAndResume(kind: 'batch' | 'chain', trial: number, signal: 'SIGKILL' | 'SIGINT'): Promise<void> {
  const random = prng(1000 * (kind === 'batch' ? 1 : 2) + trial);
  const steps = kind === 'batch' ? 5 : 3;
  const prompts = Array.from(
    { length: steps },
    (_, i) => `${kind} trial ${trial} step ${i + 1}: a paper kite over a hill, the camera pans`,
  );
  const at = Math.floor(random() * steps);
  const phase = PHASES[Math.floor(random() * (kind === 'batch' ? PHASES.length : PHASES.length))] as string;
  const earlier = new Set(runRows(e2e.dbPath, kind).map((r) => r.task_id));
  const args =
    kind === 'batch'
      ? ['image', 't2i', ...prompts, '--jitter', '0', '--sandbox', '--json']
      : ['video', 'chain', chainFile(prompts, trial), '-y', '--jitter', '0', '--sandbox', '--json'];
  const victim = e2e.spawn(args, { env: ENV });
  let runId = '';
  try {
    const run = await waitFor(
      `${kind} step ${at + 1} at ${phase}`,
      () => runRows(e2e.dbPath, kind).find((r) => !earlier.has(r.task_id) && reached(r.steps[at], phase)),
      240_000,
      20,
    );
    runId = run.task_id;
    if (signal === 'SIGKILL') victim.killGroup();
    else process.kill(victim.pid, 'SIGINT');
    await victim.done;
  } finally {
    victim.killGroup();
  }
  const run = await resumeToEnd(runId, prompts);
  expect(run.status, JSON.stringify(run).slice(0, 3000)).toBe('completed');
  for (const prompt of prompts)
    expect(submitsOf(prompt), `${prompt} (killed at step ${at + 1}, ${phase}, ${signal})`).toBe(1);
  const files =
    kind === 'batch' ? (run.items ?? []).flatMap((i) => i.files ?? []) : (run.links ?? []).map((l) => l.file ?? '');
  expect(files).toHaveLength(steps);
  for (const file of files) expect(fs.existsSync(file), file).toBe(true);
}

function chainFile(prompts: readonly string[], trial: number): string {
  const file = `${e2e.home}/kill-chain-${trial}.jsonl`;
  fs.writeFileSync(file, prompts.map((prompt) => JSON.stringify({ prompt })).join('\n'));
  return file;
}

describe('runs stopped at random moments are resumed without paying twice', () => {
  for (let trial = 0; trial < TRIALS; trial += 1) {
    const signal = trial % 2 === 0 ? 'SIGKILL' : 'SIGINT';
    it(`batch of 5, trial ${trial + 1} (${signal})`, () => killAndResume('batch', trial, signal), 600_000);
    it(`chain of 3, trial ${trial + 1} (${signal})`, () => killAndResume('chain', trial, signal), 900_000);
  }
});

describe('a run started over MCP with the Tasks extension is stopped by tasks/cancel', () => {
  let serve: ServeProcess;
  beforeAll(async () => {
    serve = await e2e.serve(['--sandbox']);
  }, 90_000);
  afterAll(async () => {
    await serve?.stop();
  });

  /** The run's row and steps once it settled, and how many of its steps reached their submit. */
  async function startAndCancel(
    tool: string,
    args: Record<string, unknown>,
    prompts: readonly string[],
  ): Promise<RunRow> {
    const steps = prompts.length;
    const ours = (): number =>
      e2e.sim.received.submits().filter((call) => prompts.some((p) => String(call.inner).includes(p))).length;
    const requester = await connectTaskRequester(serve.url);
    try {
      const execution = await requester.session.callTool(tool, { ...args, jitter: '0' });
      expect(execution.kind).toBe('task');
      const taskId = String(execution.handle?.taskId);
      // Wait until the run's first step reached its submit, then cancel.
      await waitFor(
        'the first step submitted',
        () =>
          runRows(e2e.dbPath, tool === 'gflow_generate_batch' ? 'batch' : 'chain').find(
            (r) => r.task_id === taskId && reached(r.steps[0], 'submitted'),
          ),
        240_000,
        20,
      );
      const cancel = await modernRequest(serve.url, 'tasks/cancel', { taskId }, { capabilities: TASKS_CAPABILITIES });
      expect(cancel.error, JSON.stringify(cancel)).toBeUndefined();
      const received = ours();
      const settled = await waitFor(
        'the run settled',
        async () => {
          const got = await modernRequest(serve.url, 'tasks/get', { taskId }, { capabilities: TASKS_CAPABILITIES });
          const status = (got.result as { status?: string } | undefined)?.status;
          return status === 'cancelled' || status === 'completed' || status === 'failed' ? got.result : undefined;
        },
        240_000,
      );
      // Nothing submitted after the cancel: the step on its way at most.
      expect(ours()).toBeLessThanOrEqual(received + 1);
      expect(ours()).toBeLessThan(steps);
      expect((settled as { status?: string }).status).toBe('cancelled');
      const kind = tool === 'gflow_generate_batch' ? 'batch' : 'chain';
      return runRows(e2e.dbPath, kind).find((r) => r.task_id === taskId) as RunRow;
    } finally {
      await requester.close();
    }
  }

  /**
   * The steps that reached their submit are named: a step's may_have_spent is written before its
   * click, so every submit the simulator received for this run's prompts is a step so marked, and
   * at most one marked step's submit is missing (the cancel fell between its mark and its click, or
   * its request was still on its way). Counted by prompt: a request of an earlier test that lands
   * late is not this run's.
   */
  function expectSpentNamed(run: RunRow, prompts: readonly string[]): void {
    const received = e2e.sim.received.submits().filter((call) => prompts.some((p) => String(call.inner).includes(p)));
    const spent = run.steps.filter((s) => s.checkpoint?.may_have_spent === true).length;
    expect(spent).toBeGreaterThanOrEqual(received.length);
    expect(spent).toBeLessThanOrEqual(received.length + 1);
  }

  it('a batch: cancelled before its next submit; the submitted steps named in its envelope', async () => {
    e2e.sim.received.clear();
    const prompts = ['a red kite', 'a blue kite', 'a green kite', 'a gold kite', 'a white kite'];
    const run = await startAndCancel('gflow_generate_batch', { items: prompts.map((prompt) => ({ prompt })) }, prompts);
    expect(run.status).toMatch(/^(cancelled|indeterminate)$/);
    expectSpentNamed(run, prompts);
    expect(run.steps.length).toBeLessThan(5);
  }, 600_000);

  it('a chain: cancelled before its next link', async () => {
    e2e.sim.received.clear();
    const links = [{ prompt: 'a red door opens' }, { prompt: 'the room beyond' }, { prompt: 'a window at its end' }];
    const run = await startAndCancel(
      'gflow_generate_chain',
      { links },
      links.map((l) => l.prompt),
    );
    expect(run.status).toMatch(/^(cancelled|indeterminate)$/);
    expectSpentNamed(
      run,
      links.map((l) => l.prompt),
    );
  }, 600_000);
});
