// runClaimedGenerationTask's row-driven parts, with a real catalog and a fake browser session: a
// cancel another process asks for (cancel_requested_at) stops the job — `cancelled` before the
// submit click, `indeterminate` after it, never `failed`, the problem kept in the row — and the
// job's own settings travel in the row (job_settings). The browser path is covered by the journeys.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FlowSession } from '@gflow/driver';
import { CancelledError } from '@gflow/errors';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateImageInput } from '../operations/generationSchemas.js';
import { createGflow } from '../runtime/createGflow.js';
import type { Gflow } from '../runtime/gflow.js';
import type { RuntimeServices } from '../runtime/runtimeServices.js';
import { projectTitleOf, runClaimedGenerationTask } from './generationJob.js';
import { effectiveSettings } from './generationPayload.js';

let home: string;
let gflow: Gflow;
const CLAIMANT = 'worker:alice:1:test';

beforeEach(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-job-'));
  fs.mkdirSync(path.join(home, 'profile_alice'));
  gflow = await createGflow({ surface: 'library', env: { GFLOW_CLI_HOME: home }, cwd: home }).ready();
});

afterEach(async () => {
  await gflow.close();
  fs.rmSync(home, { recursive: true, force: true });
});

/** A session whose generation reports `phases`, then hangs until the job's signal aborts. */
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

function runtime(session: FlowSession): RuntimeServices {
  return {
    ...({} as RuntimeServices),
    settings: gflow.settings,
    layout: gflow.layout,
    logger: gflow.logger,
    browserOverrides: {},
    catalog: gflow.catalog,
    sessions: {
      withSession: (_profile, use, fn) => {
        use.onProgress?.({ phase: 'starting-browser' });
        return fn(session);
      },
      withProfileExclusive: (_profile, _use, fn) => fn(),
    },
    claimantFor: () => CLAIMANT,
  };
}

function claimedTask(jobSettings?: Record<string, unknown>) {
  const input = { ...generateImageInput.parse({ prompt: 'a cat', wait: false }), profile: 'alice' };
  const created = gflow.catalog.tasks.create({
    profile: 'alice',
    taskType: 't2i',
    payload: {
      kind: 'image',
      task_id: 'x',
      command: 'image t2i',
      input,
      expanded_prompt: 'a cat',
      params: {},
      ...(jobSettings ? { job_settings: jobSettings } : {}),
    },
  });
  const claimed = gflow.catalog.tasks.claim(created.taskId, CLAIMANT);
  if (!claimed) throw new Error('not claimed');
  return claimed;
}

async function cancelWhile(phases: readonly string[], wantPhase: string) {
  const seen: { timeoutMs?: number } = {};
  const task = claimedTask({ output_dir: home, timeout_seconds: 42, agent_confirm: 'never', project: null });
  const running = runClaimedGenerationTask(runtime(hangingSession(phases, seen)), task, {
    signal: new AbortController().signal,
    cancelPollMs: 5,
  });
  // Another process asks: `gflow task cancel`, or tasks/cancel on a server that does not run it.
  for (let i = 0; gflow.catalog.tasks.get(task.taskId)?.checkpoint?.phase !== wantPhase; i++) {
    if (i > 400) throw new Error(`the job never reached ${wantPhase}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(gflow.catalog.tasks.cancel(task.taskId).status).toBe('working');
  const result = await running;
  return { result, row: gflow.catalog.tasks.get(task.taskId), seen };
}

describe('runClaimedGenerationTask and its row', () => {
  it('a cancel asked for before the submit stops the job: cancelled, with its problem in the row', async () => {
    const { result, row, seen } = await cancelWhile([], 'starting-browser');
    expect(result).toMatchObject({ status: 'cancelled', error: { type: expect.stringContaining('cancelled') } });
    expect(row).toMatchObject({ status: 'cancelled', error: { exit_code: 130 } });
    // The row's job settings, not the runtime's (600 s), set the reply timeout.
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
