import { BadParameterError, ConfigurationError } from '@gflow/errors';
import type { Gflow, Operation } from '@gflow/core';
import { operationEntry } from '@gflow/core/surfaces';
import type { FlagSpec, PositionalSpec } from '../args/flagSpec.js';
import type { ParsedValues } from '../args/parseArgv.js';
import { type FlagOverride, zodFlags, zodPositionals } from '../args/zodFlags.js';
import { type CommandDef, type LeafOutput, type LeafSpec, defineLeaf } from './commandSpec.js';
import type { LeafContext } from './leafContext.js';

export interface OperationLeafOptions {
  readonly name: string;
  readonly description: string;
  readonly examples?: readonly string[];
  /** The core operation's name (`generateImage`). */
  readonly operation: string;
  /** The operation's input schema, read at help/run time (core's registry, or an exported schema). */
  readonly schema: () => unknown;
  readonly overrides?: Readonly<Record<string, FlagOverride>>;
  /** Schema keys taken as positionals, in order. */
  readonly positionals?: readonly string[];
  readonly variadicLast?: boolean;
  /** CLI-only flags (their keys never reach the operation unless `toInput` moves them). */
  readonly extraFlags?: () => readonly FlagSpec[];
  /** Fixed input (e.g. `mode: 'i2v'`); its keys are never flags. */
  readonly fixed?: Readonly<Record<string, unknown>>;
  /** Adjusts the input built from the flags (resolving paths against the working directory, …). */
  readonly toInput?: (
    input: Record<string, unknown>,
    values: ParsedValues,
    ctx: LeafContext,
  ) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Renders the operation's result; default: the result as JSON on both paths. */
  readonly render?: (result: unknown, values: ParsedValues, ctx: LeafContext) => LeafOutput | Promise<LeafOutput>;
  readonly aliases?: readonly string[];
  /** Ctrl-C goes to the operation (which settles its task and says what was spent) instead of cutting it off. */
  readonly handlesInterrupt?: boolean;
  /** The positionals may be absent (the command takes them from elsewhere too, e.g. --prompts-file). */
  readonly optionalPositionals?: boolean;
  /**
   * Runs the command instead of the one-operation default; `single(values)` is that default
   * (for the case the command still is one operation call).
   */
  readonly run?: (
    ctx: LeafContext,
    values: ParsedValues,
    base: {
      readonly flags: readonly FlagSpec[];
      readonly positionals: readonly PositionalSpec[];
      single(values: ParsedValues): Promise<LeafOutput>;
    },
  ) => Promise<LeafOutput>;
}

/** The registered operation with this name (its module loaded), or the no-spend refusal when it spends. */
export async function requireOperation(gflow: Gflow, name: string, commandPath: string): Promise<Operation> {
  const entry = operationEntry(name);
  await entry?.load();
  const op = gflow.operation(name);
  if (op) return op;
  if (entry) {
    throw new ConfigurationError(
      `'gflow ${commandPath}' spends credits and no-spend mode is on (GFLOW_MCP_NO_SPEND / --no-spend).`,
      {
        remediationHint: 'Unset GFLOW_MCP_NO_SPEND to run spending commands.',
      },
    );
  }
  // Every leaf's operation is in core's registry (apps/app/test/commandCoverage.test.ts): a bug.
  throw new Error(`'gflow ${commandPath}' names the core operation "${name}", which core does not have.`);
}

/**
 * Core's input refusal (one validation, in core: `gflow.run` parses with the operation's schema)
 * restated with the CLI's names: `--out-dir: …` or `PROMPT: …` instead of `out_dir: …`. Any other
 * error, and a refusal of a key that is no flag, passes unchanged. Exit 2 either way.
 */
export function withCliNames(
  error: unknown,
  flags: readonly FlagSpec[],
  positionals: readonly PositionalSpec[],
): unknown {
  if (!(error instanceof BadParameterError)) return error;
  const path = error.extensions['parameter_path'];
  const parameter = error.extensions['parameter'];
  if (
    !Array.isArray(path) ||
    path.length === 0 ||
    typeof parameter !== 'string' ||
    !error.message.startsWith(`${parameter}: `)
  )
    return error;
  const key = String(path[0]);
  const flag = flags.find((f) => f.key === key);
  const positional = positionals.find((p) => p.key === key);
  if (!flag && !positional) return error;
  const where = flag ? `--${flag.name}` : (positional as PositionalSpec).name;
  const rest = path.length > 1 ? ` (${path.slice(1).join('.')})` : '';
  return new BadParameterError(`${where}${rest}: ${error.message.slice(parameter.length + 2)}`, {
    extensions: { ...error.extensions, parameter: key },
    cause: error,
  });
}

/**
 * Runs one core operation for a command: refuses clearly when it is missing,
 * builds the input (given the schema's keys) and runs it with Ctrl-C and progress wired in;
 * core validates it, and a refusal names the CLI flag.
 */
export async function runOperation(
  ctx: LeafContext,
  name: string,
  buildInput: (schemaKeys: ReadonlySet<string>) => Record<string, unknown> | Promise<Record<string, unknown>>,
  names: { readonly flags?: readonly FlagSpec[]; readonly positionals?: readonly PositionalSpec[] } = {},
): Promise<unknown> {
  const gflow = await ctx.gflow({ loadCatalog: false });
  const op = await requireOperation(gflow, name, ctx.commandPath);
  const keys = new Set(Object.keys((op.input as { shape?: object }).shape ?? {}));
  const input = await buildInput(keys);
  try {
    return await gflow.runByName(name, input, { signal: ctx.signal, onProgress: (event) => ctx.onProgress(event) });
  } catch (error) {
    throw withCliNames(error, names.flags ?? [], names.positionals ?? []);
  }
}

/**
 * A leaf that runs one core operation: its flags derive from the operation's
 * zod input (kebab-case, with the command's overrides), the same schema
 * validates, progress goes to the spinner, and the result is rendered.
 */
export function operationLeaf(options: OperationLeafOptions): CommandDef {
  const positionals = (): readonly PositionalSpec[] =>
    options.positionals?.length
      ? zodPositionals(options.schema(), options.positionals, options.variadicLast).map((p) =>
          options.optionalPositionals ? { ...p, required: false } : p,
        )
      : [];
  const flags = (): readonly FlagSpec[] => {
    const schema = options.schema();
    // A fixed key is the command's, not the user's: it never becomes a flag.
    const overrides = {
      ...Object.fromEntries(Object.keys(options.fixed ?? {}).map((key) => [key, { omit: true }])),
      ...options.overrides,
    };
    return [
      ...zodFlags(schema, { overrides, positionals: options.positionals ?? [] }),
      ...(options.extraFlags?.() ?? []),
    ];
  };
  const spec: LeafSpec = {
    name: options.name,
    description: options.description,
    operation: options.operation,
    flags,
    positionals,
    ...(options.examples ? { examples: options.examples } : {}),
    ...(options.aliases ? { aliases: options.aliases } : {}),
    ...(options.handlesInterrupt ? { handlesInterrupt: true } : {}),
    async run(ctx, values) {
      const single = async (given: ParsedValues): Promise<LeafOutput> => {
        const result = await runOperation(
          ctx,
          options.operation,
          (keys) => {
            const input: Record<string, unknown> = { ...options.fixed };
            for (const [key, value] of Object.entries(given))
              if (keys.has(key) && value !== undefined) input[key] = value;
            return options.toInput ? options.toInput(input, given, ctx) : input;
          },
          { flags: flags(), positionals: positionals() },
        );
        return options.render ? await options.render(result, given, ctx) : { data: result };
      };
      if (options.run) return options.run(ctx, values, { flags: flags(), positionals: positionals(), single });
      return single(values);
    },
  };
  return defineLeaf(spec);
}
