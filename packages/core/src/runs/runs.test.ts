// Runs with a real catalog and fake browser sessions: a batch's prompts are steps whose state is
// written before their submit; a run stopped after a step's submit is resumed without that step
// being submitted again (it is recovered by its ids), and only steps that never reached their
// submit are submitted; a cancel asked for elsewhere stops a run before its next submit; an
// idempotency key returns the earlier run. Kills of real processes are in tests-e2e.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FlowSession } from '@gflow/driver';
import { CancelledError } from '@gflow/errors';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGflow } from '../runtime/createGflow.js';
import type { Gflow } from '../runtime/gflow.js';
import type { OperationContext } from '../runtime/operationContext.js';
import type { ProgressEvent } from '../runtime/progressPhases.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import { runBatch } from '../operations/batchOperation.js';
import { generateBatchInput } from '../operations/batchOperation.js';
import { generateImage } from '../operations/generateOperations.js';
import { generateImageInput } from '../generation/index.js';
import { runClaimedRun } from './runRun.js';

let home: string;
let gflow: Gflow;
const CLAIMANT = 'library:alice:1:test';
/** The project the fake session makes: a Flow project id is a UUID (a later step is asked for it by id). */
const PROJECT = '0b7e5c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

beforeEach(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-runs-'));
  fs.mkdirSync(path.join(home, 'profile_alice'));
  gflow = await createGflow({ surface: 'library', env: { GFLOW_CLI_HOME: home }, cwd: home }).ready();
});

afterEach(async () => {
  await gflow.close();
  fs.rmSync(home, { recursive: true, force: true });
});

interface Calls {
  generate: string[];
  follow: string[][];
}

type Hold = (prompt: string, signal: AbortSignal) => Promise<void> | undefined;

/** A session that makes one image per prompt (its media id from the prompt); `hold` may stop one after its submit. */
function imageSession(calls: Calls, hold?: Hold): FlowSession {
  return {
    generateImage: async (request: {
      prompt: string;
      projectId?: string;
      signal: AbortSignal;
      onProgress: (event: Record<string, unknown>) => void;
      beforeSubmit: (quote: unknown) => Promise<string>;
    }) => {
      calls.generate.push(request.prompt);
      const projectId = request.projectId ?? PROJECT;
      const mediaId = `m-${request.prompt.replace(/\W/g, '')}`;
      request.onProgress({ phase: 'configuring', projectId, mayHaveSpent: false });
      await request.beforeSubmit({ credits: 0, source: 'cost-line', balance: 100, text: null });
      request.onProgress({ phase: 'submitting', projectId, mayHaveSpent: true });
      request.onProgress({ phase: 'submitted', projectId, mediaIds: [mediaId], mayHaveSpent: true });
      await hold?.(request.prompt, request.signal);
      return {
        projectId,
        items: [{ mediaId, workflowId: `w-${mediaId}`, prompt: request.prompt, modelKey: 'BELUGA', url: 'https://x' }],
        submitRpc: 'ogiZ0b',
        submitBody: '',
        uploads: [],
        arm: 'classic',
      };
    },
    followMedia: async (request: { mediaIds: readonly string[]; projectId: string; prompt: string }) => {
      calls.follow.push([...request.mediaIds]);
      return {
        projectId: request.projectId,
        items: request.mediaIds.map((mediaId) => ({
          mediaId,
          workflowId: null,
          prompt: request.prompt,
          modelKey: '',
          url: 'https://x',
        })),
        submitRpc: '',
        submitBody: '',
        uploads: [],
        arm: 'classic',
        recovered: true,
      };
    },
    download: async () => ({ bytes: PNG, extension: '.png', source: 'https://x' }),
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
    sessions: { withSession: (_profile, _use, fn) => fn(session), withProfileExclusive: (_p, _u, fn) => fn() },
    limiter: { tryTake: () => ({ ok: true, retryAfterMs: 0 }) },
    jobs: { add: () => undefined },
    claimantFor: () => CLAIMANT,
  };
}

const context = (
  services: RuntimeServices,
  signal = new AbortController().signal,
  onProgress?: (e: ProgressEvent) => void,
): OperationContext => ({
  runtime: services,
  surface: 'library',
  signal,
  ...(onProgress ? { onProgress } : {}),
});

const batch = (more: Record<string, unknown>) =>
  generateBatchInput.parse({
    profile: 'alice',
    jitter: '0',
    items: ['a', 'b', 'c'].map((prompt) => ({ prompt })),
    ...more,
  });

describe('a batch is a durable run', () => {
  it('runs every prompt as a step of its run, in one project, progress on one scale ending once', async () => {
    const calls: Calls = { generate: [], follow: [] };
    const events: ProgressEvent[] = [];
    const result = await runBatch(
      batch({}),
      context(runtime(imageSession(calls)), undefined, (e) => events.push(e)),
    );
    expect(result).toMatchObject({ status: 'completed', flow_project_id: PROJECT, made: 3 });
    expect(result.items.map((i) => i.status)).toEqual(['completed', 'completed', 'completed']);
    expect(calls.generate).toEqual(['a', 'b', 'c']);
    const run = gflow.catalog.tasks.get(result.task_id as string);
    expect(run).toMatchObject({ status: 'completed', taskType: 'batch', parentTaskId: null });
    expect(gflow.catalog.tasks.steps(run?.taskId as string).map((s) => [s.stepIndex, s.status])).toEqual([
      [0, 'completed'],
      [1, 'completed'],
      [2, 'completed'],
    ]);
    const stepped = events.filter((e) => e.step !== undefined);
    expect(stepped.filter((e) => e.phase === 'done')).toHaveLength(1);
    expect(stepped.at(-1)).toMatchObject({ phase: 'done', step: { index: 3, total: 3 } });
    const positions = stepped.map((e) => e.step?.index ?? 0);
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
  });

  it('stopped after a step was submitted, a resumed run recovers that step and submits only the ones never submitted', async () => {
    const calls: Calls = { generate: [], follow: [] };
    const stop = new AbortController();
    // Ctrl-C right after item b's submit: the driver's call ends with the cancellation.
    const hold: Hold = (prompt) => {
      if (prompt !== 'b') return undefined;
      stop.abort();
      return Promise.reject(new CancelledError('Ctrl-C'));
    };
    const first = await runBatch(batch({}), context(runtime(imageSession(calls, hold)), stop.signal));
    expect(first.status).toBe('indeterminate');
    expect(first.items.map((i) => i.status)).toEqual(['completed', 'indeterminate', 'skipped']);
    expect(calls.generate).toEqual(['a', 'b']);

    const again: Calls = { generate: [], follow: [] };
    const resumed = await runBatch(
      generateBatchInput.parse({ profile: 'alice', jitter: '0', resume_from: first.task_id }),
      context(runtime(imageSession(again))),
    );
    expect(again.generate).toEqual(['c']);
    expect(again.follow).toEqual([['m-b']]);
    expect(resumed).toMatchObject({ status: 'completed', made: 2 });
    expect(resumed.items.map((i) => [i.status, (i as { recovered?: boolean }).recovered ?? false])).toEqual([
      ['completed', false],
      ['completed', true],
      ['completed', false],
    ]);
    // Resuming a finished run makes nothing.
    const third: Calls = { generate: [], follow: [] };
    await runBatch(
      generateBatchInput.parse({ profile: 'alice', resume_from: first.task_id }),
      context(runtime(imageSession(third))),
    );
    expect(third).toEqual({ generate: [], follow: [] });
  });

  it('a run its process stops (its queue, not a cancel) goes back to the queue; the next claimer recovers the submitted step and submits only the rest', async () => {
    const calls: Calls = { generate: [], follow: [] };
    const stop = new AbortController();
    // The server shuts down right after item b's submit.
    const hold: Hold = (prompt) => {
      if (prompt !== 'b') return undefined;
      stop.abort(new DOMException('The server is shutting down.', 'AbortError'));
      return Promise.reject(new CancelledError('shutting down'));
    };
    const services: RuntimeServices = {
      ...runtime(imageSession(calls, hold)),
      background: { launch: () => undefined },
    };
    const queued = await runBatch(batch({ wait: false }), context(services));
    const runId = queued.task_id as string;
    const claimed = gflow.catalog.tasks.claim(runId, CLAIMANT);
    if (!claimed) throw new Error('not claimed');
    const stopped = await runClaimedRun(services, claimed, { signal: stop.signal, releaseOnStop: true });
    expect(stopped.status).toBe('pending');
    expect(gflow.catalog.tasks.get(runId)).toMatchObject({
      status: 'pending',
      claimant: null,
      checkpoint: { phase: 'requeued', requeues: 1 },
    });
    expect(calls.generate).toEqual(['a', 'b']);

    const again: Calls = { generate: [], follow: [] };
    const next = gflow.catalog.tasks.claim(runId, CLAIMANT);
    if (!next) throw new Error('not claimed again');
    const done = await runClaimedRun(runtime(imageSession(again)), next, {
      signal: new AbortController().signal,
      releaseOnStop: true,
    });
    expect(done.status).toBe('completed');
    expect(again.generate).toEqual(['c']);
    expect(again.follow).toEqual([['m-b']]);
  });

  it('a cancel asked for elsewhere stops the run before its next submit', async () => {
    const calls: Calls = { generate: [], follow: [] };
    let runId = '';
    const hold: Hold = (prompt, signal) => {
      if (prompt !== 'a') return undefined;
      runId = gflow.catalog.tasks.list({ topLevel: true }).items[0]?.taskId ?? '';
      gflow.catalog.tasks.cancel(runId);
      // The run's clock reads the row and aborts the step it is on; the next submit must not happen.
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(new CancelledError('cancelled')), { once: true }),
      );
    };
    const result = await runBatch(batch({}), context(runtime(imageSession(calls, hold))));
    expect(calls.generate).toEqual(['a']);
    expect(result.status).toMatch(/cancelled|indeterminate/);
    expect(gflow.catalog.tasks.get(runId)?.status).toMatch(/cancelled|indeterminate/);
  });

  it('the same idempotency key twice makes one run and one set of submits', async () => {
    const calls: Calls = { generate: [], follow: [] };
    const services = runtime(imageSession(calls));
    const first = await runBatch(batch({ idempotency_key: 'agent-retry-7' }), context(services));
    const second = await runBatch(batch({ idempotency_key: 'agent-retry-7' }), context(services));
    expect(second.task_id).toBe(first.task_id);
    expect(second.status).toBe('completed');
    expect(calls.generate).toEqual(['a', 'b', 'c']);
  });
});

describe('an idempotency key on a single generation', () => {
  const image = (more: Record<string, unknown>) =>
    generateImageInput.parse({ profile: 'alice', prompt: 'a', aspect: '16:9', ...more });

  it('twice: one submit, and the retry answers the first task with its files', async () => {
    const calls: Calls = { generate: [], follow: [] };
    const services = runtime(imageSession(calls));
    const first = await generateImage.handler(image({ idempotency_key: 'agent-retry-8' }), context(services));
    const second = await generateImage.handler(image({ idempotency_key: 'agent-retry-8' }), context(services));
    expect(first.status).toBe('completed');
    expect(second).toEqual(first);
    expect(calls.generate).toEqual(['a']);
    // Another key, or none, is another call.
    await generateImage.handler(image({ idempotency_key: 'agent-retry-9' }), context(services));
    await generateImage.handler(image({}), context(services));
    expect(calls.generate).toEqual(['a', 'a', 'a']);
  });

  it('a key a batch used is refused for a single generation (exit 2), never submitted', async () => {
    const calls: Calls = { generate: [], follow: [] };
    const services = runtime(imageSession(calls));
    await runBatch(batch({ idempotency_key: 'shared-key' }), context(services));
    await expect(
      generateImage.handler(image({ idempotency_key: 'shared-key' }), context(services)),
    ).rejects.toMatchObject({ extensions: { parameter: 'idempotency_key' } });
    expect(calls.generate).toEqual(['a', 'b', 'c']);
  });
});
