// The fake runtime of `@gflow/core/testing` (issue 42): a real `Gflow` whose operations keep their
// names and zod schemas (so a call is checked exactly as the real one is, types included) but whose
// handlers answer at once from the output schema, with no browser, no network and no SQLite. A test
// scripts failures (`failNext`) or answers (`respond`) and reads what was asked (`calls`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type GflowError, hasErrorCode, toErrorEnvelopeBody, toGflowError } from '@gflow/errors';
import type { Operation } from '../operations/operation.js';
import { OPERATIONS } from '../operations/everyOperation.js';
import type { OperationInput, OperationName, OperationOutput } from '../operations/registry.js';
import { Gflow, type CreateGflowOptions } from '../runtime/gflow.js';
import type { OperationShape, RegisteredOperation } from '../operations/registry.js';
import { type FakeContext, fakeValue, withMediaOfFiles } from './fakeValue.js';

/** One call the fake answered: the operation's camelCase name and the input as its schema parsed it. */
export interface FakeCall {
  readonly operation: OperationName;
  readonly input: Readonly<Record<string, unknown>>;
}

/** How to build the fake: the throwing mode and where its "generated" files go. */
export interface FakeGflowOptions extends Pick<CreateGflowOptions, 'throwOnFailure'> {
  /** The directory the results' `files` name (default: a fresh temp directory). */
  readonly outputDir?: string;
  /** Write each file a generation names (a tiny PNG or MP4 with the right magic bytes); default false. */
  readonly writeFiles?: boolean;
  /** The `created_at`-like times results carry (default 2026-01-01T00:00:00.000Z). */
  readonly now?: string;
}

/** What a scripted failure does: resolve the failure envelope (the default where the operation has one), or throw. */
export interface FailNextOptions {
  /** Throw the error even where the real operation resolves `{status, error}` (a refusal before the job). */
  readonly throws?: boolean;
}

type Answer = (input: Readonly<Record<string, unknown>>) => unknown;

// A 1×1 PNG and the head of an MP4 (`ftyp` at byte 4): what gflow's own magic-byte check accepts.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const MP4 = Buffer.from('0000001c66747970697336360000000069736f6d69736f32617663316d703431', 'hex');

/** The status a failure envelope carries for an error, as the real runtime reports it. */
function failureStatus(error: GflowError): string {
  if (hasErrorCode(error, 'rate-limit')) return 'rate_limited';
  if (hasErrorCode(error, 'cancelled')) return 'cancelled';
  return 'failed';
}

/** Finds an operation by either of its names. */
function registered(name: string): Operation {
  const op = OPERATIONS.find((o) => o.name === name || o.mcpName === name);
  if (!op) throw new Error(`FakeGflow: no operation named ${name}`);
  return op;
}

/** What a test scripted and what the fake was asked: the state the fake operations' handlers share. */
class FakeScript {
  readonly calls: FakeCall[] = [];
  readonly failures = new Map<string, Array<{ error: GflowError; throws: boolean }>>();
  readonly answers = new Map<string, Answer>();
  #seq = 0;

  constructor(
    readonly outputDir: string,
    readonly now: string,
    readonly writeFiles: boolean,
  ) {}

  /** gflow's operations with handlers that answer from this script. */
  operations(): Operation[] {
    return OPERATIONS.map((op) => ({
      ...op,
      usesBrowser: false,
      usesCatalog: false,
      handler: async (input: unknown) => this.answer(op, input as Record<string, unknown>),
    }));
  }

  answer(op: Operation, input: Record<string, unknown>): unknown {
    this.calls.push({ operation: op.name as OperationName, input });
    const failure = this.failures.get(op.name)?.shift();
    if (failure) return this.#fail(op, failure.error, failure.throws);
    const answer = this.answers.get(op.name);
    const value = answer ? answer(input) : withMediaOfFiles(fakeValue(op.output, this.#context(op, input)));
    const parsed = op.output.safeParse(value);
    if (!parsed.success)
      throw new Error(`FakeGflow: the answer for ${op.name} does not fit its output schema: ${parsed.error.message}`);
    return parsed.data;
  }

  #fail(op: Operation, error: GflowError, throws: boolean): unknown {
    const envelope = {
      status: failureStatus(error),
      task_id: `fake-task-${++this.#seq}`,
      error: toErrorEnvelopeBody(error),
    };
    if (!throws && op.output.safeParse(envelope).success) return envelope;
    throw error;
  }

  #context(op: Operation, input: Record<string, unknown>): FakeContext {
    const video = /video|chain|extend|movie/i.test(op.name);
    return {
      input,
      now: this.now,
      next: () => ++this.#seq,
      files: (count) => Array.from({ length: count }, () => this.#file(video)),
    };
  }

  #file(video: boolean): string {
    const file = path.join(
      this.outputDir,
      video ? 'videos' : 'images',
      `fake-media-${++this.#seq}.${video ? 'mp4' : 'png'}`,
    );
    if (this.writeFiles) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, video ? MP4 : PNG);
    }
    return file;
  }
}

/**
 * A gflow runtime for an embedder's unit tests: every operation of `createGflow()`, by the same
 * names and with the same input validation, answered at once with a result its output schema
 * accepts (generations: `completed` with task, project and media ids and `files` under
 * `outputDir`). Nothing opens a browser, the network or SQLite. Script what a test needs:
 * `failNext(name, error)`, `respond(name, answer)`; read `calls`.
 */
export class FakeGflow extends Gflow<RegisteredOperation> {
  readonly #script: FakeScript;

  constructor(options: FakeGflowOptions = {}) {
    const outputDir = options.outputDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-fake-'));
    const script = new FakeScript(outputDir, options.now ?? '2026-01-01T00:00:00.000Z', options.writeFiles === true);
    super(
      {
        env: { GFLOW_CLI_HOME: outputDir, GFLOW_CLI_OUTPUT_DIR: outputDir, GFLOW_CLI_LOG_LEVEL: 'ERROR' },
        cwd: outputDir,
        ...(options.throwOnFailure === undefined ? {} : { throwOnFailure: options.throwOnFailure }),
      },
      script.operations() as readonly OperationShape[] as readonly RegisteredOperation[],
    );
    this.#script = script;
  }

  /** Every call answered, oldest first: the operation's camelCase name and the parsed input. */
  get calls(): readonly FakeCall[] {
    return this.#script.calls;
  }

  /** The directory the results' `files` name. */
  get outputDir(): string {
    return this.#script.outputDir;
  }

  /**
   * The next call of `name` fails with `error` (calls queue up in order): it resolves the failure
   * envelope `{status: "failed" | "rate_limited" | "cancelled", task_id, error}` where the real
   * operation has one (a generation), else it throws; `throwOnFailure` makes the first throw too.
   */
  failNext(name: OperationName, error: Error, options: FailNextOptions = {}): this {
    const key = registered(name).name;
    const queued = this.#script.failures.get(key) ?? [];
    this.#script.failures.set(key, [...queued, { error: toGflowError(error), throws: options.throws === true }]);
    return this;
  }

  /** Every later call of `name` answers with `answer` (or `answer(input)`) instead of the made-up result; checked against its output schema. */
  respond<N extends OperationName>(
    name: N,
    answer: OperationOutput<N> | ((input: OperationInput<N>) => OperationOutput<N>),
  ): this {
    this.#script.answers.set(registered(name).name, typeof answer === 'function' ? (answer as Answer) : () => answer);
    return this;
  }

  /** The calls of one operation (either name), oldest first. */
  callsOf(name: OperationName): FakeCall[] {
    const key = registered(name).name;
    return this.#script.calls.filter((call) => call.operation === key);
  }
}

/**
 * A fake gflow runtime for unit tests (see {@link FakeGflow}): every operation, answered at once,
 * no browser, network or SQLite.
 *
 * @example
 * import { createFakeGflow } from '@gflow/core/testing';
 * import { RateLimitError } from '@gflow/errors';
 *
 * const gflow = createFakeGflow();
 * const image = await gflow.run('generateImage', { prompt: 'a fox', count: 2 });
 * console.log(image.status, image.files); // completed, two paths
 * gflow.failNext('generateVideo', new RateLimitError('Flow asked to slow down.'));
 * const video = await gflow.run('generateVideo', { prompt: 'a fox runs' });
 * console.log(video.status); // rate_limited
 * await gflow.close();
 */
export function createFakeGflow(options: FakeGflowOptions = {}): FakeGflow {
  return new FakeGflow(options);
}
