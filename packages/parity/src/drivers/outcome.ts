import { type Operation, isFailureStatus } from '@gflow/core';
import { loadedOperations } from '@gflow/core/surfaces';
import type { SurfaceName } from '../requirements.js';

/** RFC 9457 problem details as a surface reports them (gflow adds retryable and message). */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status?: number;
  readonly detail: string;
  readonly instance?: string;
  readonly remediation_hint?: string;
  readonly retryable?: boolean;
  readonly message?: string;
  readonly [extension: string]: unknown;
}

/** What one call answered, the same shape on every surface. */
export type CallOutcome =
  | { readonly ok: true; readonly result: Record<string, unknown> }
  | {
      readonly ok: false;
      readonly problem: Problem;
      /** The envelope's status (`error`, `rate_limited`, `invalid_tools`, `failed`, …) when the surface sent one. */
      readonly status?: string;
      /** The process exit code (CLI), or the code the error maps to (library). */
      readonly exitCode?: number;
      /** The whole reply, for assertions on extra members. */
      readonly reply?: unknown;
      /** The MCP client refused or the server answered a JSON-RPC error (e.g. an unknown tool). */
      readonly protocolError?: boolean;
    };

/** Uniform access to one surface. */
export interface SurfaceDriver {
  readonly surface: SurfaceName;
  readonly home: string;
  readonly outputDir: string;
  /** Each call starts a process (the CLI): bodies keep the number of calls small there. */
  readonly costly: boolean;
  /** Runs an operation (library name or MCP tool name) with tool-style arguments. */
  call(operation: string, args?: Readonly<Record<string, unknown>>): Promise<CallOutcome>;
  /** The MCP names of the operations the surface offers; undefined where nothing is listed (the CLI). */
  listTools(): Promise<string[] | undefined>;
  /** What the server process wrote to stderr (MCP surfaces); undefined elsewhere. */
  serverLog(): string | undefined;
  close(): Promise<void>;
}

export function operationNamed(name: string): Operation {
  const op = loadedOperations().find((o) => o.name === name || o.mcpName === name);
  if (!op) throw new Error(`No core operation or MCP tool named "${name}".`);
  return op;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isProblem(value: unknown): value is Problem {
  return isRecord(value) && typeof value['type'] === 'string' && typeof value['title'] === 'string';
}

/**
 * Reads a reply: a bare problem (CLI --json failure), or an envelope
 * `{status, error}` whose error is a problem or a string (invalid_tools).
 */
export function outcomeOfReply(reply: unknown, failed: boolean, exitCode?: number): CallOutcome {
  const extra = exitCode === undefined ? {} : { exitCode };
  if (isProblem(reply)) return { ok: false, problem: reply, reply, ...extra };
  if (isRecord(reply)) {
    const status = typeof reply['status'] === 'string' ? reply['status'] : undefined;
    const error = reply['error'];
    if (failed || isFailureStatus(status)) {
      const problem: Problem = isProblem(error)
        ? error
        : {
            type: 'about:blank',
            title: status ?? 'error',
            detail: typeof error === 'string' ? error : JSON.stringify(error ?? reply),
          };
      return { ok: false, problem, reply, ...(status ? { status } : {}), ...extra };
    }
    return { ok: true, result: reply };
  }
  if (failed)
    return {
      ok: false,
      problem: { type: 'about:blank', title: 'unreadable reply', detail: JSON.stringify(reply) },
      reply,
      ...extra,
    };
  return { ok: true, result: { result: reply } };
}

/** The error code a problem's type names (`bad-parameter`), `gflow` for about:blank. */
export function codeOf(problem: Problem): string {
  const match = /\/errors\/([a-z0-9-]+)$/.exec(problem.type);
  return match?.[1] ?? (problem.type === 'about:blank' ? 'gflow' : problem.type);
}
