import { describe, expect, it } from 'vitest';
import { SERVER_TASK_WAIT_SECONDS, SURFACE_POLICY } from './surfacePolicy.js';

describe('SURFACE_POLICY', () => {
  it('treats MCP and HTTP as servers (confined output, the spend brake, a 180 s lease wait, warm sessions) and the CLI and library as neither', () => {
    const servers = (['mcp', 'http'] as const).map((s) => SURFACE_POLICY[s]);
    const local = (['cli', 'library'] as const).map((s) => SURFACE_POLICY[s]);
    for (const policy of servers)
      expect(policy).toMatchObject({
        confineOutput: true,
        rateLimit: true,
        leaseWait: 'server',
        keepWarm: true,
        batchUsage: true,
        names: 'tool',
      });
    for (const policy of local)
      expect(policy).toMatchObject({ confineOutput: false, rateLimit: false, leaseWait: 'cli', keepWarm: false });
  });

  it('batches usage everywhere but the CLI, and names task rows by command only there', () => {
    expect(SURFACE_POLICY.cli).toMatchObject({ batchUsage: false, names: 'command' });
    expect(SURFACE_POLICY.library).toMatchObject({ batchUsage: true, names: 'tool' });
  });

  it('names lease holders as other processes show them', () => {
    expect(Object.fromEntries(Object.entries(SURFACE_POLICY).map(([surface, p]) => [surface, p.leaseHolder]))).toEqual({
      cli: 'CLI',
      mcp: 'mcp run',
      http: 'serve',
      library: 'library',
    });
  });

  it("bounds a wait on a task below an MCP client's tool timeout on the servers, and answers the progress so far there", () => {
    for (const surface of ['mcp', 'http'] as const)
      expect(SURFACE_POLICY[surface].taskWait).toEqual({ boundSeconds: SERVER_TASK_WAIT_SECONDS, onBound: 'progress' });
    expect(SERVER_TASK_WAIT_SECONDS).toBeLessThan(60);
    for (const surface of ['cli', 'library'] as const)
      expect(SURFACE_POLICY[surface].taskWait).toEqual({ boundSeconds: null, onBound: 'error' });
  });

  it('warms up in the background on the servers only (they answer initialize at once)', () => {
    expect(Object.fromEntries(Object.entries(SURFACE_POLICY).map(([surface, p]) => [surface, p.warmUp]))).toEqual({
      cli: 'before',
      mcp: 'background',
      http: 'background',
      library: 'before',
    });
  });

  it('picks up stranded background tasks where a process can run them: the CLI starts a worker, servers run them, a library leaves them', () => {
    expect(
      Object.fromEntries(Object.entries(SURFACE_POLICY).map(([surface, p]) => [surface, p.strandedTasks])),
    ).toEqual({ cli: 'start-worker', mcp: 'run-here', http: 'run-here', library: 'leave' });
  });
});
