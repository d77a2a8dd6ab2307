import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AuthExpiredError, ContentPolicyError, RateLimitError, toErrorEnvelopeBody } from '@gflow/errors';
import { Gflow, generationResult, type Operation } from '@gflow/core';
import { defineOperation, loadOperations, startBackgroundTask } from '@gflow/core/surfaces';
import { z } from 'zod';

// Every operation, loaded (the surfaces' registry loads them on demand).
const OPERATIONS = await loadOperations();

/** A token that must never reach a client. */
export const SECRET_TOKEN = 'ya29.a0AfH6SMBsecretsecretsecret';

/** The media id the fake generations report for their one file, images/cat.png. */
export const TEST_MEDIA_ID = 'media-cat-0001';

const spend = (name: string, mcpName: string, taskType: string) =>
  defineOperation({
    name,
    mcpName,
    title: `Test ${name}`,
    description: `A test stand-in for ${mcpName}.`,
    kind: 'spend',
    usesBrowser: true,
    input: z.object({
      prompt: z.string().min(1),
      wait: z.boolean().default(true),
      profile: z.string().default('default'),
      fail: z.boolean().default(false),
    }),
    output: generationResult,
    handler: async (input, ctx) => {
      if (input.prompt === 'rate')
        throw new RateLimitError('Spend brake: no token left.', { extensions: { retry_after: 20 } });
      ctx.onProgress?.({ phase: 'queued' });
      ctx.onProgress?.({ phase: 'generating', progress: 1, total: 2 });
      ctx.onProgress?.({ phase: 'done' });
      if (input.fail)
        return {
          status: 'failed' as const,
          task_id: 't-1',
          error: toErrorEnvelopeBody(new ContentPolicyError('Flow refused the prompt.')),
        };
      const file = path.join(ctx.runtime.settings.outputDir, 'images', 'cat.png');
      return {
        status: 'completed' as const,
        task_id: 't-1',
        task_type: taskType,
        flow_project_id: 'p-1',
        flow_media_id: TEST_MEDIA_ID,
        files: [file],
        media: [{ media_id: TEST_MEDIA_ID, workflow_id: null, file, bytes: 1, width: null, height: null, seed: 7 }],
        seed: 7,
      };
    },
  });

/** The question a test task asks (input_required) and waits on until tasks/update answers it. */
export const GO_QUESTION = { method: 'elicitation/create', params: { mode: 'form', message: 'Go on?' } };

/** An operation that runs as a task (`task`): inline with wait=true; queued with wait=false, asking GO_QUESTION first. */
const taskOperation = (name: string, mcpName: string, task: 'optional' | 'required') =>
  defineOperation({
    name,
    mcpName,
    title: `Test ${name}`,
    description: 'Runs as a task of the queue; the queued run waits for an answer before it completes.',
    kind: 'read',
    usesBrowser: false,
    task,
    input: z.object({
      label: z.string().default('x'),
      wait: z.boolean().default(true),
      refuse: z.boolean().default(false),
    }),
    output: z.looseObject({ status: z.string() }),
    handler: async (input, { runtime }) => {
      if (input.refuse) return { status: 'failed', error: { title: 'Refused before anything was queued' } };
      if (input.wait) return { status: 'completed', label: input.label, inline: true };
      return startBackgroundTask(runtime, { profile: 'default', taskType: 'test', payload: { input } }, async (job) => {
        const answers = await job.ask({ go: GO_QUESTION });
        return { status: 'completed', label: input.label, answer: answers['go'] };
      });
    },
  });

/** Read operations that exercise the funnel. */
export const testOperations: readonly Operation[] = [
  taskOperation('testTask', 'gflow_test_task', 'optional'),
  taskOperation('testTaskRequired', 'gflow_test_task_required', 'required'),
  spend('generateImage', 'gflow_generate_image', 't2i'),
  spend('generateVideo', 'gflow_generate_video', 't2v'),
  defineOperation({
    name: 'testExplode',
    mcpName: 'gflow_test_explode',
    title: 'Explode',
    description: 'Throws a non-gflow error whose text carries a path and a token.',
    kind: 'read',
    usesBrowser: false,
    input: z.object({}),
    output: z.object({}),
    handler: async () => {
      throw new TypeError(
        `cannot open /home/alice/.local/share/gflow-cli/profile_alice/Cookies with Bearer ${SECRET_TOKEN}`,
      );
    },
  }),
  defineOperation({
    name: 'testAuthExpired',
    mcpName: 'gflow_test_auth_expired',
    title: 'Auth expired',
    description: 'Throws a gflow error.',
    kind: 'read',
    usesBrowser: true,
    input: z.object({ profile: z.string().default('default') }),
    output: z.object({}),
    handler: async () => {
      throw new AuthExpiredError('The Flow session for this profile has expired.');
    },
  }),
  defineOperation({
    name: 'testSlow',
    mcpName: 'gflow_test_slow',
    title: 'Slow',
    description: 'Waits until aborted, reporting progress.',
    kind: 'read',
    usesBrowser: false,
    input: z.object({ ms: z.number().int().min(0).max(60_000).default(30_000) }),
    output: z.object({ status: z.literal('ok') }),
    handler: async (input, ctx) => {
      ctx.onProgress?.({ phase: 'starting-browser', message: 'warming up' });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, input.ms);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(ctx.signal.reason instanceof Error ? ctx.signal.reason : new DOMException('aborted', 'AbortError'));
        });
      });
      return { status: 'ok' as const };
    },
  }),
];

export interface TestGflowOptions {
  readonly noSpend?: boolean;
  readonly surface?: 'mcp' | 'http';
  readonly logger?: Gflow['logger'];
}

/** A real Gflow in a temporary home, with the real operations plus the test ones. */
export function makeTestGflow(options: TestGflowOptions = {}): { gflow: Gflow; home: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-mcp-'));
  const env: Record<string, string> = {
    GFLOW_CLI_HOME: home,
    GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out'),
    GFLOW_CLI_LOG_LEVEL: 'ERROR',
    ...(options.noSpend ? { GFLOW_MCP_NO_SPEND: '1' } : {}),
  };
  const logger = options.logger ?? captureLogger().logger;
  const gflow = new Gflow({ surface: options.surface ?? 'mcp', env, cwd: home, logger }, [
    ...OPERATIONS.filter((op) => !testOperations.some((t) => t.name === op.name || t.mcpName === op.mcpName)),
    ...testOperations,
  ]);
  return { gflow, home };
}

/** Log lines the runtime wrote, for assertions on server-side logging. */
export function captureLogger(): { lines: string[]; logger: Gflow['logger'] } {
  const lines: string[] = [];
  const push = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void lines.push(JSON.stringify({ level, message, ...fields }));
  return { lines, logger: { debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') } };
}
