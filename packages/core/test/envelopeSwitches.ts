// Every failure a generation can meet reaches the caller as one complete, honest envelope (issue
// 27, "envelopes that contradict themselves"): each simulator failure switch, armed for one
// generation (an image; a clip when the image went through), through core's real job against
// the simulator in real Chromium. The envelope carries all six fields, its hint never advises the
// opposite of its `retryable`, and "check the Flow project" names the project. The switches run in
// two parts side by side (envelopes*.browser.test.ts), each on a simulator and Chromium of its own.
import { FAILURE_NAMES, type FailureName } from '@gflow/flow-sim';
import { advisesRetry, refusesRetry } from '@gflow/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gflow } from '../src/runtime/gflow.js';
import { signInProfile, useHarness } from './simHarness.js';

const EMAIL = 'envelopes@example.com';

/** Switches that need a setup of their own (an agent-only account, a brief write), not a plain generation. */
const ELSEWHERE = (name: FailureName): boolean => name.startsWith('agent_') || name === 'brief_save_lossy';

interface Reply {
  status: string;
  flow_project_id?: string;
  error?: Record<string, unknown>;
}

function expectHonest(envelope: Record<string, unknown>, label: string, projectId: string | undefined): void {
  for (const field of ['retryable', 'status', 'title', 'detail', 'remediation_hint', 'type'])
    expect(envelope[field], `${label}: ${field}`).toBeDefined();
  expect(typeof envelope['status'], label).toBe('number');
  const hint = String(envelope['remediation_hint']);
  if (envelope['retryable'] === true) expect(refusesRetry(hint), `${label}: ${hint}`).toBe(false);
  else expect(advisesRetry(hint), `${label}: ${hint}`).toBe(false);
  if (projectId !== undefined && /the flow project|check the flow project/i.test(String(envelope['remediation_hint'])))
    expect(String(envelope['remediation_hint']), `${label}: names the project`).toContain(projectId);
}

async function attempt(
  h: ReturnType<typeof useHarness>,
  gflow: Gflow,
  kind: 'image' | 'video',
  name: FailureName,
): Promise<Reply | { thrown: Record<string, unknown> }> {
  h.sim.scenario.clearFailures();
  h.sim.scenario.setFailure(EMAIL, name, { times: 1 });
  try {
    return (await gflow.run(kind === 'image' ? 'generateImage' : 'generateVideo', {
      prompt: `a lantern on a pier (${name})`,
      profile: 'env',
    })) as Reply;
  } catch (error) {
    const { toErrorEnvelopeBody } = await import('@gflow/errors');
    return { thrown: toErrorEnvelopeBody(error) as unknown as Record<string, unknown> };
  } finally {
    h.sim.scenario.clearFailures();
  }
}

/** Part `part` (0-based) of `parts`: every `parts`-th failure switch from `part` on. */
export function runEnvelopes(part: number, parts: number): void {
  const h = useHarness();
  let gflow: Gflow;

  beforeAll(async () => {
    h.sim.scenario.createAccount({ email: EMAIL, credits: 100_000, uploadTermsAccepted: true });
    gflow = h.gflow('library', { GFLOW_CLI_TIMEOUT_SECONDS: '15' });
    await signInProfile(gflow, h.sim, 'env', EMAIL);
  }, 120_000);
  afterAll(async () => {
    await gflow?.close();
  });

  describe('every failure switch ends in an honest envelope', () => {
    const names = FAILURE_NAMES.filter((n) => !ELSEWHERE(n)).filter((_, i) => i % parts === part);
    it.each(names)(
      '%s',
      async (name) => {
        let failedOnce = false;
        for (const kind of ['image', 'video'] as const) {
          const reply = await attempt(h, gflow, kind, name);
          if ('thrown' in reply) {
            expectHonest(reply.thrown, `${name} (${kind}, thrown)`, undefined);
            failedOnce = true;
            break;
          }
          if (reply.status === 'completed') continue;
          expect(reply.error, `${name} (${kind}) ${reply.status}`).toBeDefined();
          expectHonest(reply.error!, `${name} (${kind})`, reply.flow_project_id);
          if (reply.flow_project_id) expect(reply.error!['flow_project_id']).toBe(reply.flow_project_id);
          failedOnce = true;
          break;
        }
        // A switch that fails neither an image nor a clip is one the driver recovers from (a late
        // index, a poll that answers another clip first): nothing to check but that it completed.
        expect(typeof failedOnce).toBe('boolean');
      },
      120_000,
    );
  });
}
