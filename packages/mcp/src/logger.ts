import { redactText } from '@gflow/errors';

export type LogLevel = 'debug' | 'info' | 'warning' | 'error';

export interface Logger {
  log(level: LogLevel, event: string, fields?: Readonly<Record<string, unknown>>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warning: 30, error: 40 };

/**
 * A structured logger that writes one JSON line per event to stderr, never to
 * stdout (stdout is the stdio JSON-RPC channel). Text is redacted of tokens,
 * cookies and signed URLs before it is written.
 */
export function stderrLogger(minLevel: LogLevel = 'info', write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  return {
    log(level, event, fields = {}) {
      if (ORDER[level] < ORDER[minLevel]) return;
      const line = JSON.stringify({ ts: new Date().toISOString(), level, event, ...fields });
      write(`${redactText(line)}\n`);
    },
  };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = { log() {} };
