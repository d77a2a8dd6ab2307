// The official MCP conformance suite's tasks-* scenarios (SEP-2663), every check, against gflow's
// own server with the suite's fixture tools on gflow's task infrastructure (fixtures/conformanceServer.ts).
import { type ConformanceRun, failedChecks, runConformanceScenario } from '@gflow/testkit/conformance';
import { useStarted } from '@gflow/testkit';
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
