// The generation module's row-driven parts, with a real catalog and a fake browser session: a
// request is planned once, its frame read once when it is made and verified once by the job; the
// row is parsed like user input (another schema_version is refused, never run); a cancel another
// process asks for (cancel_requested_at) stops the run — `cancelled` before the submit click,
// `indeterminate` after it, never `failed`; the job's own settings travel in the row. The browser
// path is covered by the journeys.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FlowSession } from '@gflow/driver';
import { CancelledError } from '@gflow/errors';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createGflow } from '../runtime/createGflow.js';
import type { Gflow } from '../runtime/gflow.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { PROGRESS_PHASES, type ProgressEvent, type ProgressPhase } from '../runtime/progressPhases.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import * as plan from './plan.js';
import { projectTitleOf } from './projectTitle.js';
import { effectiveSettings } from './request.js';
import { runClaimedGeneration } from './run.js';
import { generateImageInput, generateVideoInput } from './schemas.js';
import { submitGeneration } from './submit.js';

vi.mock('./plan.js', { spy: true });

let home: string;
let gflow: Gflow;
const CLAIMANT = 'worker:alice:1:test';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(32)]);

beforeEach(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-run-'));
  fs.mkdirSync(path.join(home, 'profile_alice'));
  gflow = await createGflow({ surface: 'library', env: { GFLOW_CLI_HOME: home }, cwd: home }).ready();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await gflow.close();
  fs.rmSync(home, { recursive: true, force: true });
});

/** A session whose generation reports `phases`, then hangs until the run's signal aborts. */
function hangingSession(phases: readonly string[], seen: { timeoutMs?: number }): FlowSession {
  return {
    generateImage: async (request: {
      signal: AbortSignal;
      replyTimeoutMs: number;
      onProgress: (event: { phase: string }) => void;
    }) => {
      seen.timeoutMs = request.replyTimeoutMs;
      for (const phase of phases) request.onProgress({ phase });
      await new Promise((_, reject) =>
        request.signal.addEventListener('abort', () => reject(new CancelledError('aborted')), { once: true }),
      );
    },
    failedInOperation: () => false,
    captureIncident: () => Promise.resolve(null),
  } as unknown as FlowSession;
}

/** A session that makes one clip and serves its bytes; it counts its generations. */
function clipSession(calls: { generate: number }): FlowSession {
  return {
    generateVideo: async (request: { onProgress: (event: { phase: string; mayHaveSpent: boolean }) => unknown }) => {
      calls.generate += 1;
      // As the driver does: the submitting write lands before the click.
      await request.onProgress({ phase: 'submitting', mayHaveSpent: true });
      return {
        projectId: 'p-1',
        items: [{ mediaId: 'm-clip', workflowId: 'w-1', prompt: 'go', modelKey: 'veo_3_1_i2v_lite', url: 'https://x' }],
        submitRpc: 'YhhmEf',
        submitBody: '',
        uploads: [],
        arm: 'classic',
      };
    },
    download: async () => ({ bytes: MP4, extension: '.mp4', source: 'https://x' }),
    failedInOperation: () => false,
    captureIncident: () => Promise.resolve(null),
  } as unknown as FlowSession;
}

function runtime(session: FlowSession): RuntimeServices {
  return {
    ...({} as RuntimeServices),
    settings: { ...gflow.settings, outputDir: path.join(home, 'out') },
    layout: gflow.layout,
    logger: gflow.logger,
    browserOverrides: {},
    catalog: gflow.catalog,
    queue: gflow.queue,
    sessions: {
      withSession: (_profile, use, fn) => {
        use.onProgress?.({ phase: 'starting-browser' });
        return fn(session);
      },
      withProfileExclusive: (_profile, _use, fn) => fn(),
    },
    limiter: { tryTake: () => ({ ok: true, retryAfterMs: 0 }) },
    background: { launch: () => undefined },
    claimantFor: () => CLAIMANT,
  };
}

const contextOf = (services: RuntimeServices): OperationContext => ({
  runtime: services,
  surface: 'library',
  signal: new AbortController().signal,
});

/** Queues a wait=false request through the real submit path (its worker is a no-op), then claims it. */
async function queued(services: RuntimeServices, ask: Parameters<typeof submitGeneration>[0]) {
  const pending = await submitGeneration(ask, contextOf(services));
  const claimed = gflow.catalog.tasks.claim(pending.task_id as string, CLAIMANT);
  if (!claimed) throw new Error('not claimed');
  return claimed;
}

const imageAsk = (more: Record<string, unknown> = {}) => ({
  kind: 'image' as const,
  input: generateImageInput.parse({ prompt: 'a cat', wait: false, profile: 'alice', ...more }),
});

async function cancelWhile(phases: readonly string[], wantPhase: string) {
  const seen: { timeoutMs?: number } = {};
  const services = runtime(hangingSession(phases, seen));
  const task = await queued({ ...services, settings: { ...services.settings, timeoutSeconds: 42 } }, imageAsk());
  const running = runClaimedGeneration(services, task, { signal: new AbortController().signal, cancelPollMs: 5 });
  // Another process asks: `gflow task cancel`, or tasks/cancel on a server that does not run it.
  for (let i = 0; gflow.catalog.tasks.get(task.taskId)?.checkpoint?.phase !== wantPhase; i++) {
    if (i > 400) throw new Error(`the run never reached ${wantPhase}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(gflow.catalog.tasks.cancel(task.taskId).status).toBe('working');
  const result = await running;
  return { result, row: gflow.catalog.tasks.get(task.taskId), seen };
}

describe('one request: planned once, its frame read once, verified once', () => {
  it('an i2v with a frame file: one plan, one read at submit, one in the job, one generation', async () => {
    const frame = path.join(home, 'frame.png');
    fs.writeFileSync(frame, PNG);
    const reads = vi.spyOn(fs, 'readFileSync');
    const calls = { generate: 0 };
    const services = runtime(clipSession(calls));
    const input = generateVideoInput.parse({ prompt: 'go', mode: 'i2v', initial_frame: frame, profile: 'alice' });
    const result = await submitGeneration({ kind: 'video', input }, contextOf(services));
    expect(result).toMatchObject({ status: 'completed', flow_media_id: 'm-clip' });
    expect(plan.planVideo).toHaveBeenCalledTimes(1);
    expect(reads.mock.calls.filter(([file]) => file === frame)).toHaveLength(2);
    expect(calls.generate).toBe(1);
    expect(fs.readFileSync((result.files as string[])[0] as string)).toEqual(MP4);
  });

  it('a frame changed after the request was made is refused before the browser; nothing was sent', async () => {
    const frame = path.join(home, 'frame.png');
    fs.writeFileSync(frame, PNG);
    const calls = { generate: 0 };
    const services = runtime(clipSession(calls));
    const input = generateVideoInput.parse({ prompt: 'go', mode: 'i2v', initial_frame: frame, wait: false });
    const task = await queued(services, { kind: 'video', input: { ...input, profile: 'alice' } });
    fs.writeFileSync(frame, Buffer.concat([PNG, Buffer.from([1])]));
    const result = await runClaimedGeneration(services, task, { signal: new AbortController().signal });
    expect(result).toMatchObject({ status: 'failed', error: { parameter: 'initial_frame' } });
    expect(String((result.error as { detail: string }).detail)).toContain('changed since the request was made');
    expect(calls.generate).toBe(0);
  });
});

describe('a process that stops (its queue, not a cancel of the task)', () => {
  async function stopWhile(phases: readonly string[], wantPhase: string) {
    const services = runtime(hangingSession(phases, {}));
    const task = await queued(services, imageAsk());
    const stop = new AbortController();
    const running = runClaimedGeneration(services, task, { signal: stop.signal, releaseOnStop: true });
    for (let i = 0; gflow.catalog.tasks.get(task.taskId)?.checkpoint?.phase !== wantPhase; i++) {
      if (i > 400) throw new Error(`the run never reached ${wantPhase}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    stop.abort(new DOMException('The server is shutting down.', 'AbortError'));
    return { result: await running, row: gflow.catalog.tasks.get(task.taskId) };
  }

  it('before the submit: the task is queued again for the next worker, nothing spent, no claimant', async () => {
    const { result, row } = await stopWhile([], 'starting-browser');
    expect(result).toMatchObject({ status: 'pending', task_id: row?.taskId });
    expect(row).toMatchObject({ status: 'pending', claimant: null, checkpoint: { phase: 'requeued', requeues: 1 } });
  });

  it('after the submit click: indeterminate, never queued again', async () => {
    const { result, row } = await stopWhile(['submitting'], 'submitting');
    expect(result).toMatchObject({ status: 'indeterminate' });
    expect(row?.status).toBe('indeterminate');
  });
});

describe('the row is read like user input', () => {
  it('a request of another schema_version is refused with a clear error and never run', async () => {
    const calls = { generate: 0 };
    const services = runtime(clipSession(calls));
    const task = await queued(services, imageAsk());
    const old = { ...task, payload: { ...task.payload, schema_version: 1 } };
    const result = await runClaimedGeneration(services, old, { signal: new AbortController().signal });
    expect(result).toMatchObject({ status: 'failed', error: { type: expect.stringContaining('queue-schema') } });
    expect(String((result.error as { detail: string }).detail)).toMatch(/schema_version 1.*not run/);
    expect(gflow.catalog.tasks.get(task.taskId)?.status).toBe('failed');
    expect(calls.generate).toBe(0);
  });

  it('a request whose plan is not one gflow can run is refused, naming the field', async () => {
    const services = runtime(clipSession({ generate: 0 }));
    const task = await queued(services, imageAsk());
    const broken = { ...task, payload: { ...task.payload, plan: { ...(task.payload['plan'] as object), count: 9 } } };
    const result = await runClaimedGeneration(services, broken, { signal: new AbortController().signal });
    expect(String((result.error as { detail: string }).detail)).toContain('plan.count');
  });
});

describe('a cancel asked for elsewhere, and the row', () => {
  it('a cancel asked for before the submit stops the run: cancelled, with its problem in the row', async () => {
    const { result, row, seen } = await cancelWhile([], 'starting-browser');
    expect(result).toMatchObject({ status: 'cancelled', error: { type: expect.stringContaining('cancelled') } });
    expect(row).toMatchObject({ status: 'cancelled', error: { exit_code: 130 } });
    // The row's job settings (the queuing process's 42 s), not the runner's, set the reply timeout.
    expect(seen.timeoutMs).toBe(42_000);
  });

  it('a cancel asked for after the submit click is indeterminate, never failed', async () => {
    const { result, row } = await cancelWhile(['submitting', 'submitted'], 'submitted');
    expect(result.status).toBe('indeterminate');
    expect(row).toMatchObject({
      status: 'indeterminate',
      checkpoint: { may_have_spent: true },
      error: { exit_code: 130 },
    });
  });

  it("effectiveSettings: the row's job settings over the runtime's; none means the runtime's", () => {
    const settings = gflow.settings;
    expect(effectiveSettings(settings, {})).toBe(settings);
    const mine = effectiveSettings(settings, {
      job_settings: { output_dir: '/elsewhere', timeout_seconds: 7, agent_confirm: 'never', project: 'p1' },
    });
    expect(mine).toMatchObject({ outputDir: '/elsewhere', timeoutSeconds: 7, agentConfirm: 'never', project: 'p1' });
    expect(mine.home).toBe(settings.home);
  });
});

/**
 * A session that reports what the real driver reports for a clip (its `done` once Flow has made
 * it, before gflow downloads anything) and makes two clips; or, on a dry run, stops at the quote.
 */
function reportingSession(): FlowSession {
  type Report = (event: Record<string, unknown>) => void;
  const items = ['m-1', 'm-2'].map((mediaId) => ({
    mediaId,
    workflowId: `w-${mediaId}`,
    prompt: 'go',
    url: 'https://x',
  }));
  return {
    generateVideo: async (request: { onProgress: Report; beforeSubmit: (quote: unknown) => Promise<string> }) => {
      const projectId = '0b7e5c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e';
      request.onProgress({ phase: 'opening' });
      request.onProgress({ phase: 'configuring', projectId });
      const decision = await request.beforeSubmit({ credits: 10, source: 'cost-line', balance: 100, text: null });
      const made = { projectId, submitRpc: 'x', submitBody: '', uploads: [], arm: 'classic' };
      if (decision !== 'submit') {
        request.onProgress({ phase: 'done', projectId });
        return { ...made, items: [], stopped: 'before-submit' };
      }
      request.onProgress({ phase: 'submitting', projectId, mayHaveSpent: true });
      request.onProgress({ phase: 'submitted', projectId, mediaIds: ['m-1', 'm-2'], mayHaveSpent: true });
      request.onProgress({ phase: 'generating', projectId, status: 2 });
      request.onProgress({ phase: 'done', projectId, mediaIds: ['m-1', 'm-2'], status: 3 });
      return { ...made, items: items.map((item) => ({ ...item, modelKey: 'veo_3_1_t2v_lite' })) };
    },
    download: async () => ({ bytes: MP4, extension: '.mp4', source: 'https://x' }),
    failedInOperation: () => false,
    captureIncident: () => Promise.resolve(null),
  } as unknown as FlowSession;
}

describe("a generation's progress never goes back (issue 42)", () => {
  /** The phases a waited video generation reports, in order, and its result. */
  async function phasesOf(more: Record<string, unknown>) {
    const events: ProgressEvent[] = [];
    const input = generateVideoInput.parse({ prompt: 'go', profile: 'alice', ...more });
    const context = { ...contextOf(runtime(reportingSession())), onProgress: (e: ProgressEvent) => events.push(e) };
    const result = await submitGeneration({ kind: 'video', input }, context);
    return { phases: events.map((e) => e.phase), result };
  }
  const order = (phases: readonly ProgressPhase[]) => phases.map((phase) => PROGRESS_PHASES.indexOf(phase));

  it('downloads after Flow is done, and says done once, last: the phases in PROGRESS_PHASES order', async () => {
    const { phases, result } = await phasesOf({});
    expect(result).toMatchObject({ status: 'completed', files: [expect.any(String), expect.any(String)] });
    expect(phases.filter((p) => p === 'done')).toEqual(['done']);
    expect(phases.at(-1)).toBe('done');
    expect(order(phases)).toEqual([...order(phases)].sort((a, b) => a - b));
    expect(phases).toEqual(expect.arrayContaining(['generating', 'downloading', 'recording']));
  });

  it('a dry run stops at the quote and says done once, last', async () => {
    const { phases, result } = await phasesOf({ dry_run: true });
    expect(result).toMatchObject({ status: 'estimated', credits_quoted: 10 });
    expect(phases.filter((p) => p === 'done')).toEqual(['done']);
    expect(phases.at(-1)).toBe('done');
    expect(order(phases)).toEqual([...order(phases)].sort((a, b) => a - b));
  });
});

describe('projectTitleOf: the title of a project a run creates', () => {
  it('is the prompt, spaces collapsed, its first non-empty line', () => {
    expect(projectTitleOf('  a red   fox\tin snow ')).toBe('a red fox in snow');
    expect(projectTitleOf('\n\nfirst line\nsecond line')).toBe('first line');
  });

  it('is cut at a word boundary with an ellipsis past 60 characters', () => {
    const long = 'a very long prompt about a lighthouse keeper who walks along the cliffs every single night';
    const title = projectTitleOf(long);
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title.endsWith('…')).toBe(true);
    expect(long.startsWith(title.slice(0, -1))).toBe(true);
    expect(title.slice(0, -1)).not.toMatch(/\s$/);
  });

  it('a prompt of only spaces still gives a title', () => {
    expect(projectTitleOf('   ')).toBe('gflow');
  });
});

describe('a task row taken from the run after Flow made its media', () => {
  it('fails the call with the queue refusal; the operation stays succeeded (its media were saved)', async () => {
    const calls = { generate: 0 };
    const session = clipSession(calls);
    const box: { taskId?: string } = {};
    const services = runtime({
      ...session,
      // While the clip downloads, another process settles the row (it took this worker for dead).
      download: async (...args: unknown[]) => {
        gflow.catalog.tasks.fail(box.taskId as string, CLAIMANT, new Error('taken for dead'));
        return (session.download as (...a: unknown[]) => Promise<unknown>)(...args);
      },
    } as FlowSession);
    const input = generateVideoInput.parse({ prompt: 'go', mode: 't2v', profile: 'alice', wait: false });
    const task = await queued(services, { kind: 'video', input });
    box.taskId = task.taskId;
    const outcome = await runClaimedGeneration(services, task, { signal: new AbortController().signal }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    expect(calls.generate).toBe(1);
    expect(String('error' in outcome ? outcome.error : JSON.stringify(outcome.result))).not.toMatch(
      /already succeeded/,
    );
    const operationId = gflow.catalog.tasks.get(task.taskId)?.checkpoint?.operation_id as number | undefined;
    const operation = gflow.catalog.operations.get(operationId ?? -1);
    expect(operation?.status).toBe('succeeded');
    expect(gflow.catalog.tasks.get(task.taskId)?.status).toBe('failed');
  });
});
