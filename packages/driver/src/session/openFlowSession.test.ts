import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFlowSession } from './openFlowSession.js';

describe('openFlowSession', () => {
  it('maps a missing browser binary to BrowserEngineUnavailableError (24)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'gflow-nobrowser-'));
    try {
      await expect(
        openFlowSession({ profileDir: dir, executablePath: path.join(dir, 'no-such-chrome'), headless: true }),
      ).rejects.toMatchObject({ exitCode: 24 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses an empty profile dir as configuration (11)', async () => {
    await expect(openFlowSession({ profileDir: ' ', headless: true })).rejects.toMatchObject({ exitCode: 11 });
  });
});
