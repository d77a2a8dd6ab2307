/** A stream the CLI writes to: process.stdout/stderr, or a buffer in tests. */
export interface CliStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/**
 * Everything the CLI touches of its process, injected so the library never
 * writes to the console itself and tests can capture output.
 */
export interface CliIo {
  readonly stdout: CliStream;
  readonly stderr: CliStream;
  /** Reads one line from the terminal (confirmations); undefined when stdin is not a TTY. */
  readonly readLine?: (question: string) => Promise<string | undefined>;
  readonly stdinIsTTY?: boolean;
  /** Reads all of standard input (`--stdin`); undefined where the CLI has none. */
  readonly readStdin?: () => Promise<string>;
}

/** Collects output in memory (tests, embedding). */
export function createBufferIo(
  options: { readonly tty?: boolean; readonly stdin?: string } = {},
): CliIo & { out(): string; err(): string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (chunk: string) => (out += chunk), isTTY: options.tty ?? false },
    stderr: { write: (chunk: string) => (err += chunk), isTTY: options.tty ?? false },
    stdinIsTTY: false,
    ...(options.stdin === undefined ? {} : { readStdin: async () => options.stdin as string }),
    out: () => out,
    err: () => err,
  };
}
