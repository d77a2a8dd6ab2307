import { Writable } from 'node:stream';

/**
 * Keeps stdout for JSON-RPC only: returns a Writable bound to the real stdout
 * (for the stdio transport) and re-points `process.stdout.write` at stderr, so
 * a stray `console.log` or a library's print cannot corrupt the protocol
 * stream. Call `restore()` to undo (tests).
 */
export function redirectStdoutToStderr(): { readonly protocolOut: Writable; restore(): void } {
  const stdout = process.stdout;
  const originalWrite = stdout.write.bind(stdout) as (
    chunk: string | Uint8Array,
    callback?: (error?: Error | null) => void,
  ) => boolean;
  const protocolOut = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      originalWrite(chunk, (error) => callback(error ?? null));
    },
  });
  protocolOut.on('error', () => {});
  const redirected = ((chunk: string | Uint8Array, encodingOrCallback?: unknown, callback?: unknown): boolean =>
    (process.stderr.write as (...args: unknown[]) => boolean)(
      chunk,
      encodingOrCallback,
      callback,
    )) as typeof stdout.write;
  stdout.write = redirected;
  return {
    protocolOut,
    restore() {
      if (stdout.write === redirected) stdout.write = originalWrite as typeof stdout.write;
    },
  };
}
