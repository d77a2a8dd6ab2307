import { redactText } from './redact.js';

/**
 * Where the details of masked errors go: the stack and the cause chain of an error gflow did not
 * raise itself, which its envelope hides ("Unexpected SqliteError; details were logged to …").
 * The runtime that owns a gflow home registers its log file (core's errors.log, rotated); while
 * one is registered, every masking writes there first and its sentence names the file, so the
 * sentence is true (issue 40: "details were logged server-side" when nothing was logged).
 */
export interface MaskedErrorLog {
  /** How an envelope names the file, without a path: `logs/errors.log in the gflow home`. */
  readonly name: string;
  /** The file itself, for the person at the terminal (the CLI's -v). */
  readonly file: string;
  /** Appends one entry; false when it could not be written. */
  write(entry: MaskedErrorEntry): boolean;
}

/** One masked error as the log keeps it (redacted). */
export interface MaskedErrorEntry {
  readonly time: string;
  /** The envelope's `instance` (`gflow:error:<id>`), which ties the two together. */
  readonly instance: string;
  readonly pid: number;
  /** The class clients see in "Unexpected <Class>". */
  readonly className: string;
  /** Message, stack and causes (describeThrown). */
  readonly details: string;
}

/** Where a masked error's details were written (for the CLI to point at, or print with -v). */
export interface MaskedErrorRecord {
  readonly file: string;
  readonly details: string;
}

const logs: MaskedErrorLog[] = [];

/** Registers the log masked errors go to (the newest registration wins); returns its removal. */
export function registerMaskedErrorLog(log: MaskedErrorLog): () => void {
  logs.push(log);
  return () => {
    const at = logs.lastIndexOf(log);
    if (at >= 0) logs.splice(at, 1);
  };
}

/** The log a masking writes to now, if a runtime registered one. */
export function currentMaskedErrorLog(): MaskedErrorLog | undefined {
  return logs.at(-1);
}

const MAX_DETAILS = 64 * 1024;
const MAX_CAUSES = 5;

/**
 * A thrown value in full, for a log: `Class: message`, its stack, then each `Caused by:` in turn
 * (at most five), redacted and at most 64 KB.
 */
export function describeThrown(value: unknown): string {
  const parts: string[] = [];
  let current: unknown = value;
  for (let depth = 0; depth <= MAX_CAUSES && current !== undefined && current !== null; depth += 1) {
    const head = depth === 0 ? '' : 'Caused by: ';
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      const title = `${current.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${current.message}`;
      const stack = current.stack?.split('\n').slice(1).join('\n') ?? '';
      parts.push(`${head}${title}${stack ? `\n${stack}` : ''}`);
      current = current.cause;
    } else {
      parts.push(`${head}${typeof current === 'string' ? current : safeJson(current)}`);
      break;
    }
  }
  const text = redactText(parts.join('\n'));
  return text.length <= MAX_DETAILS ? text : `${text.slice(0, MAX_DETAILS - 1)}…`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
