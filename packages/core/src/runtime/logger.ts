import { redact, redactText } from '@gflow/errors';

/** How much a logger says, least severe first (`GFLOW_CLI_LOG_LEVEL`). */
export type LogLevel = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';

/** What the runtime logs through (`createGflow({ logger })`): one method per level, a message and structured fields. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const RANK: Record<LogLevel, number> = { DEBUG: 10, INFO: 20, WARNING: 30, ERROR: 40 };

export interface LoggerOptions {
  readonly level: LogLevel;
  readonly format: 'auto' | 'text' | 'json';
  /** Where lines go; stderr by default (stdout belongs to JSON output and MCP stdio). */
  readonly write?: (line: string) => void;
  readonly isTTY?: boolean;
}

/** Where a runtime's log lines go instead of stderr (the CLI: through its progress line). */
export interface LogSink {
  write(line: string): void;
  /** Whether the lines land on a terminal: text lines, and below-warning lines quiet unless asked for. */
  readonly isTTY: boolean;
}

/**
 * The level a runtime logs at: the setting; on a terminal, with no level asked for (flag,
 * environment or .env), warnings and errors only — info lines would share the screen with the
 * progress line and the result.
 */
export function effectiveLogLevel(level: LogLevel, levelAskedFor: boolean, sink: LogSink | undefined): LogLevel {
  return sink?.isTTY === true && !levelAskedFor && RANK[level] < RANK.WARNING ? 'WARNING' : level;
}

/** A structured logger on stderr; every message and field is redacted. */
export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const json = options.format === 'json' || (options.format === 'auto' && !(options.isTTY ?? process.stderr.isTTY));
  const emit = (level: LogLevel, message: string, fields?: Record<string, unknown>): void => {
    if (RANK[level] < RANK[options.level]) return;
    const clean = fields ? redact(fields) : undefined;
    if (json) {
      write(
        `${JSON.stringify({ time: new Date().toISOString(), level: level.toLowerCase(), event: redactText(message), ...clean })}\n`,
      );
    } else {
      const extra = clean && Object.keys(clean).length ? ` ${JSON.stringify(clean)}` : '';
      write(`[gflow] ${level.toLowerCase()}: ${redactText(message)}${extra}\n`);
    }
  };
  return {
    debug: (m, f) => emit('DEBUG', m, f),
    info: (m, f) => emit('INFO', m, f),
    warn: (m, f) => emit('WARNING', m, f),
    error: (m, f) => emit('ERROR', m, f),
  };
}
