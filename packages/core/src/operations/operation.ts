import type { z } from 'zod';
import type { OperationContext } from '../runtime/operationContext.js';
import type { Surface } from '../runtime/surfacePolicy.js';

/**
 * What an operation does to the world; MCP annotations, no-spend filtering and
 * CLI confirmations derive from it.
 * - read: reads local data or Flow and changes nothing anywhere: no file written, no Flow state.
 * - create: adds without spending and removes or overwrites nothing — writes a new file, or a new
 *   asset, project or card in Flow (downloads, upscales, uploads, a new project or card).
 * - spend: may spend credits or quota (generation); removed entirely in no-spend mode.
 * - mutate: removes or overwrites, in Flow or locally, without spending (rename, remove, replace,
 *   switch, prune, sign-in state).
 */
export type OperationKind = 'read' | 'create' | 'spend' | 'mutate';

/** What a run's step count reads of the queue: a task row's payload (the run it resumes). */
export interface TaskPayloads {
  get(taskId: string): Promise<{ readonly payload: unknown } | undefined>;
}

/** How far each kind reaches, least first (a composed flow takes its steps' furthest). */
export const KIND_RANK: Readonly<Record<OperationKind, number>> = { read: 0, create: 1, mutate: 2, spend: 3 };

/**
 * What an operation's kind cannot say on its own. `writesLocalState`: a read that may also rewrite
 * local state (gflow_get_credits with refresh renews a profile's saved cookies), so it is not
 * read-only. `idempotent`: a set-to-value — called again with the same arguments it changes
 * nothing more (switching a card on that is on, applying the cards a project already has).
 */
export interface OperationHints {
  readonly writesLocalState?: true;
  readonly idempotent?: true;
}

/** One operation: its names, what it does, its zod input and output, and the handler every surface runs. */
export interface Operation<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodType = z.ZodType,
  N extends string = string,
  M extends string = string,
> {
  /** camelCase name used by the library (`gflow.run('generateImage', …)`). */
  readonly name: N;
  /** The MCP tool name. */
  readonly mcpName: M;
  readonly title: string;
  /** Written for an agent: what it does, what it costs, what it returns. */
  readonly description: string;
  readonly kind: OperationKind;
  /** Opens a browser on a profile (takes the profile lease). */
  readonly usesBrowser: boolean;
  /**
   * Surfaces that offer it; default all. Interactive operations (a human signs
   * in) are CLI/library only: an MCP client cannot complete them.
   */
  readonly surfaces?: readonly Surface[];
  /**
   * `false` when the handler never touches the catalog (static reads): the
   * runtime then skips loading SQLite and drizzle for it. Default: it may.
   */
  readonly usesCatalog?: boolean;
  /**
   * The operation can run as a task of the queue — a generation today, a run of many steps
   * later: called with `wait: false` it writes its task row, answers `{status: "pending",
   * task_id}` at once and runs in the background, and the task tools, tasks/get and tasks/cancel
   * follow it. `optional`: it can also answer inline (`wait: true`). `required`: it cannot, so an
   * MCP client without the Tasks extension is refused (-32021). Absent: it never makes a task.
   */
  readonly task?: 'optional' | 'required';
  /**
   * A run of many steps: how many its call runs (from the input, or the row it resumes), so its
   * progress is on one scale — steps done out of steps — from its first word, the wait for the
   * browser and the queue included.
   */
  readonly steps?: (input: z.output<I>, tasks: TaskPayloads) => Promise<number | undefined> | number | undefined;
  /** What the kind cannot say on its own, for the MCP annotations (see {@link OperationHints}). */
  readonly hints?: OperationHints;
  readonly input: I;
  readonly output: O;
  /** Runs the operation (what `gflow.run` calls after parsing the input). @internal */
  readonly handler: (input: z.output<I>, context: OperationContext) => Promise<z.output<O>>;
}

/** Declares an operation once; every surface derives from it. Its names stay literal types, so `gflow.run` can type its input and output. */
export function defineOperation<
  I extends z.ZodObject,
  O extends z.ZodType,
  const N extends string,
  const M extends string,
>(operation: Operation<I, O, N, M>): Operation<I, O, N, M> {
  return operation;
}

/**
 * MCP tool annotations derived from the kind: read-only only when nothing changes anywhere,
 * destructive only when something is removed or overwritten, idempotent for a read or a
 * set-to-value (clients may auto-approve by them); the hints say what the kind cannot.
 */
export function annotationsFor(
  kind: OperationKind,
  usesBrowser: boolean,
  hints: OperationHints = {},
): {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
} {
  return {
    readOnlyHint: kind === 'read' && hints.writesLocalState !== true,
    destructiveHint: kind === 'mutate',
    idempotentHint: kind === 'read' || hints.idempotent === true,
    openWorldHint: usesBrowser || kind === 'spend',
  };
}
