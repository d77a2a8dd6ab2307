// Issue 42: openSandbox honours the runtime's choices (its logger) and `await using` closes the
// runtime and the simulator it started. No browser: the sandbox opens without signing in.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/runtime/logger.js';
import { openSandbox } from '../src/sandbox/index.js';

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('openSandbox', () => {
  it('uses the logger it is given, and `await using` stops the runtime and the simulator', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-sandbox-options-'));
    const lines: string[] = [];
    const logger = createLogger({ level: 'DEBUG', format: 'json', write: (line) => void lines.push(line) });
    let port = 0;
    {
      await using sandbox = await openSandbox({
        env: { GFLOW_CLI_HOME: home },
        cwd: home,
        signIn: false,
        notify: () => undefined,
        logger,
      });
      expect(sandbox.gflow.logger).toBe(logger);
      port = sandbox.sim!.port;
      expect(await listening(port)).toBe(true);
    }
    expect(await listening(port)).toBe(false);
    fs.rmSync(home, { recursive: true, force: true });
  });
});
