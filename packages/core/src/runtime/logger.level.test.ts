import { describe, expect, it } from 'vitest';
import { createLogger, effectiveLogLevel } from './logger.js';

describe('the log level on a terminal', () => {
  it('keeps info lines quiet on a terminal unless a level was asked for; pipes keep the setting', () => {
    const tty = { write: () => undefined, isTTY: true };
    expect(effectiveLogLevel('INFO', false, tty)).toBe('WARNING');
    expect(effectiveLogLevel('INFO', true, tty)).toBe('INFO');
    expect(effectiveLogLevel('DEBUG', true, tty)).toBe('DEBUG');
    expect(effectiveLogLevel('ERROR', false, tty)).toBe('ERROR');
    expect(effectiveLogLevel('INFO', false, { write: () => undefined, isTTY: false })).toBe('INFO');
    expect(effectiveLogLevel('INFO', false, undefined)).toBe('INFO');
  });

  it('writes through the sink it is given, as text on a terminal', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'WARNING', format: 'auto', write: (l) => lines.push(l), isTTY: true });
    logger.info('quiet');
    logger.warn('loud', { n: 1 });
    expect(lines).toEqual(['[gflow] warning: loud {"n":1}\n']);
  });
});
