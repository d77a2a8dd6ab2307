import { describe, expect, it } from 'vitest';
import { createLogger } from '../runtime/logger.js';
import { runtimeChoices } from './openSandbox.js';

describe("the sandbox passes the runtime's choices on (issue 42)", () => {
  it('logger, keepSessionsWarm and throwOnFailure as given, false included', () => {
    const logger = createLogger({ level: 'ERROR', format: 'json', write: () => undefined });
    expect(runtimeChoices({ logger, keepSessionsWarm: false, throwOnFailure: true })).toEqual({
      logger,
      keepSessionsWarm: false,
      throwOnFailure: true,
    });
    expect(runtimeChoices({ keepSessionsWarm: true, worker: true })).toEqual({ keepSessionsWarm: true, worker: true });
  });

  it('nothing it was not given (the surface policy decides)', () => {
    expect(runtimeChoices({ env: {}, cwd: '/tmp' })).toEqual({});
  });
});
