// The official MCP conformance suite's tasks-* scenarios (SEP-2663), every check, against gflow's
// own server with the suite's fixture tools on gflow's task infrastructure (fixtures/conformanceServer.ts).
import { type ConformanceRun, failedChecks, runConformanceScenario } from '@gflow/testkit/conformance';
import { useStarted } from '@gflow/testkit';
import { connectTaskRequester, resultFromTaskOutcome } from '@gflow/testkit/mcp';
import { describe, expect, it } from 'vitest';
import { startConformanceServer } from './fixtures/conformanceServer.js';

const server = useStarted('the conformance fixture server', startConformanceServer);

/** The suite's tasks scenarios (`conformance list --server`); status notifications is the suite's own placeholder (skipped). */
const SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
  'tasks-status-notifications',
] as const;

const passed = (run: ConformanceRun): number => run.checks.filter((c) => c.status === 'SUCCESS').length;

describe('the conformance suite, tasks scenarios', () => {
  it.each(SCENARIOS)(
    '%s: every check passes',
    async (scenario) => {
      const run = await runConformanceScenario(server.url, scenario);
      expect(failedChecks(run), run.output.slice(-3000)).toEqual([]);
      if (scenario === 'tasks-status-notifications') {
        expect(run.checks.map((c) => c.status)).toEqual(['SKIPPED']);
      } else {
        expect(passed(run), run.output.slice(-3000)).toBeGreaterThan(0);
        expect(run.checks.filter((c) => c.status === 'WARNING')).toEqual([]);
      }
    },
    90_000,
  );
});

describe("the extension's own requester (@modelcontextprotocol/ext-tasks) on gflow's tasks", () => {
  it('follows a task to its result, a failed job to completed + isError, and a crashed one to failed', async () => {
    const requester = await connectTaskRequester(server.url);
    try {
      const slow = await requester.session.callTool('slow_compute', { seconds: 0.2, label: 'requester' });
      expect(slow.kind).toBe('task');
      const { outcome } = await slow.settle();
      expect(resultFromTaskOutcome(outcome)).toMatchObject({
        structuredContent: { status: 'completed', label: 'requester' },
      });
      const failing = await requester.session.callTool('failing_job', {});
      expect(resultFromTaskOutcome((await failing.settle()).outcome)).toMatchObject({ isError: true });
      const crashed = await requester.session.callTool('protocol_error_job', {});
      expect((await crashed.settle()).outcome).toMatchObject({ status: 'failed' });
    } finally {
      await requester.close();
    }
  });
});
