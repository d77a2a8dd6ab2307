import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation } from '../operations/operation.js';
import type { OperationContext } from './operationContext.js';
import { Gflow } from './gflow.js';

const homes: string[] = [];
const runtimes: Gflow[] = [];
afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.close();
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});

/** A runtime whose one operation hands back the context its handler got. */
function capture(surface: 'cli' | 'mcp'): { runtime: Gflow; context: () => Promise<OperationContext> } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-services-'));
  homes.push(home);
  let seen: OperationContext | undefined;
  const probe = defineOperation({
    name: 'probeContext',
    mcpName: 'gflow_probe_context',
    title: 'Probe the context',
    description: 'test',
    kind: 'read',
    usesBrowser: false,
    input: z.object({}),
    output: z.string(),
    handler: (_input, context) => {
      seen = context;
      return Promise.resolve('ok');
    },
  });
  const runtime = new Gflow({ surface, env: { GFLOW_CLI_HOME: home, GFLOW_CLI_LOG_LEVEL: 'ERROR' }, cwd: home }, [
    probe,
  ]);
  runtimes.push(runtime);
  return { runtime, context: async () => (await runtime.run('probeContext', {}), seen as OperationContext) };
}

describe('context.runtime', () => {
  it('is the services an operation uses, not the facade: no run, operations or close', async () => {
    const { runtime, context } = capture('mcp');
    const { runtime: services, surface } = await context();
    expect(surface).toBe('mcp');
    expect(Object.keys(services).sort()).toEqual([
      'background',
      'browserOverrides',
      'catalog',
      'claimantFor',
      'fleet',
      'flushUsage',
      'jobs',
      'keeper',
      'layout',
      'limiter',
      'logger',
      'queue',
      'sessions',
      'settings',
      'thumbnails',
    ]);
    expect(services).not.toBe(runtime);
    for (const member of ['run', 'operations', 'operation', 'close', 'onClose', 'recordUsage', 'ready'])
      expect(member in services).toBe(false);
    expect(Object.isFrozen(services)).toBe(true);
  });

  it('reads through to the runtime: the same settings, sessions and catalog, and its claimant', async () => {
    const { runtime, context } = capture('cli');
    const { runtime: services } = await context();
    expect(services.settings).toBe(runtime.settings);
    expect(services.sessions).toBe(runtime.sessions);
    expect(services.catalog).toBe(runtime.catalog);
    expect(services.claimantFor('work')).toBe(runtime.claimantFor('work'));
  });
});
