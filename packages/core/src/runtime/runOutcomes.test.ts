// Issue 42: how a call ends for a library user — the throwing mode, a signal aborted before the
// call, `await using`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ContentPolicyError, hasErrorCode, toErrorEnvelopeBody } from '@gflow/errors';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineOperation } from '../operations/operation.js';
import { generationResult } from '../generation/index.js';
import { createGflow } from './createGflow.js';
import { Gflow, type CreateGflowOptions } from './gflow.js';

let home: string;
const opened: Gflow[] = [];
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-outcomes-'));
});
afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
  fs.rmSync(home, { recursive: true, force: true });
});

let calls = 0;
/** An operation that resolves the failure envelope a generation refused by Flow resolves with. */
const refused = defineOperation({
  name: 'refusedByFlow',
  mcpName: 'gflow_refused_by_flow',
  title: 'Refused',
  description: 'test',
  kind: 'read',
  usesBrowser: false,
  usesCatalog: false,
  input: z.object({}),
  output: generationResult,
  handler: async () => {
    calls += 1;
    return {
      status: 'failed' as const,
      task_id: 'task-1',
      error: toErrorEnvelopeBody(new ContentPolicyError('Flow refused the prompt.')),
    };
  },
});
const listing = defineOperation({
  name: 'listThings',
  mcpName: 'gflow_list_things',
  title: 'List',
  description: 'test',
  kind: 'read',
  usesBrowser: false,
  usesCatalog: false,
  input: z.object({}),
  output: z.object({ status: z.literal('ok') }),
  handler: async () => ((calls += 1), { status: 'ok' as const }),
});

const runtime = (options: Partial<CreateGflowOptions> = {}) => {
  const made = new Gflow({ env: { GFLOW_CLI_HOME: home, GFLOW_CLI_LOG_LEVEL: 'ERROR' }, cwd: home, ...options }, [
    refused,
    listing,
  ]);
  opened.push(made);
  return made;
};

describe('throwOnFailure', () => {
  it('off (the default): a failure inside Flow resolves with its envelope', async () => {
    const result = await runtime().run('refusedByFlow', {});
    expect(result).toMatchObject({ status: 'failed', task_id: 'task-1', error: { retryable: false } });
  });

  it('on: the call rejects with the typed error, its task id kept', async () => {
    const rejected = await runtime({ throwOnFailure: true })
      .run('refusedByFlow', {})
      .catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(ContentPolicyError);
    expect(rejected).toMatchObject({ detail: 'Flow refused the prompt.', retryable: false });
    expect((rejected as ContentPolicyError).extensions['task_id']).toBe('task-1');
  });

  it('per call, overriding the runtime', async () => {
    await expect(runtime().run('refusedByFlow', {}, { throwOnFailure: true })).rejects.toBeInstanceOf(
      ContentPolicyError,
    );
    await expect(
      runtime({ throwOnFailure: true }).run('refusedByFlow', {}, { throwOnFailure: false }),
    ).resolves.toMatchObject({ status: 'failed' });
  });

  it('leaves a successful result alone', async () => {
    await expect(runtime({ throwOnFailure: true }).run('listThings', {})).resolves.toEqual({ status: 'ok' });
  });
});

describe('a signal aborted before the call', () => {
  it('resolves a generation `cancelled` at once, before anything starts (no catalog, no browser)', async () => {
    const gflow = createGflow({ env: { GFLOW_CLI_HOME: home }, cwd: home });
    opened.push(gflow);
    const result = await gflow.run(
      'generateImage',
      { prompt: 'a lighthouse at dusk' },
      { signal: AbortSignal.abort() },
    );
    expect(result).toMatchObject({ status: 'cancelled', error: { type: expect.stringContaining('cancelled') } });
    expect(fs.existsSync(path.join(home, 'gflow.db'))).toBe(false);
  });

  it('rejects a call whose result has no cancelled envelope, without running it', async () => {
    calls = 0;
    const rejected = await runtime()
      .run('listThings', {}, { signal: AbortSignal.abort() })
      .catch((error: unknown) => error);
    expect(hasErrorCode(rejected, 'cancelled')).toBe(true);
    expect(calls).toBe(0);
  });

  it('still refuses a bad input first', async () => {
    const gflow = createGflow({ env: { GFLOW_CLI_HOME: home }, cwd: home });
    opened.push(gflow);
    await expect(
      gflow.runByName('generateImage', { prompt: '' }, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ code: 'bad-parameter' });
  });
});

describe('await using', () => {
  it('closes the runtime at the end of the block', async () => {
    let closed = 0;
    {
      await using gflow = runtime();
      gflow.onClose(() => void (closed += 1));
      await gflow.run('listThings', {});
      expect(closed).toBe(0);
    }
    expect(closed).toBe(1);
  });
});
