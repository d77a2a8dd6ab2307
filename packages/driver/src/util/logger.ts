/** The optional logger the driver writes to; libraries never print. */
export interface DriverLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const noop = (): void => undefined;

export const SILENT_LOGGER: DriverLogger = { debug: noop, info: noop, warn: noop, error: noop };
