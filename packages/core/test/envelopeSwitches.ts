// Every failure a generation can meet reaches the caller as one complete, honest envelope (issue
// 27, "envelopes that contradict themselves"): each simulator failure switch, armed for one
// generation (an image, and a clip when the image went through; an image with a reference file for
// the upload switches), through core's real job against the simulator in real Chromium. The
// envelope carries all six fields, its hint never advises the opposite of its `retryable`, and
// "check the Flow project" names the project. The switches run in two parts side by side
// (envelopes*.browser.test.ts), each on a simulator and Chromium of its own.
import fs from 'node:fs';
import path from 'node:path';
import { FAILURE_NAMES, type FailureName, makePng } from '@gflow/flow-sim';
import { advisesRetry, refusesRetry } from '@gflow/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gflow } from '../src/runtime/gflow.js';
import { signInProfile, useHarness } from './simHarness.js';

const EMAIL = 'envelopes@example.com';

/**
 * Switches a plain generation never meets, each with tests of its own setup: an agent-only account
 * (driver agentOnly), a brief write (driver instructions), r2v's submit reply (driver lostReply) and
 * a sign-in (app sandboxWarmUp).
 */
const ELSEWHERE = (name: FailureName): boolean =>
  name.startsWith('agent_') || ['brief_save_lossy', 'mzza6b_null_status', 'held_sign_in'].includes(name);

/** Switches of an upload and the library search that finds it (maseQ, UpteDb): met by an image with a reference file. */
const UPLOAD_SWITCHES: ReadonlySet<FailureName> = new Set([
  'maseq_no_id',
  'maseq_http_400',
  'maseq_project_id_first',
  'stuck_upload',
  'late_index',
]);

/**
 * Switches the run recovers from, so it completes: a download cut short is fetched again, URLs in
 * swapped slots and a wrong size field are read by what the bytes are, a late index and a poll that
 * answers another clip first are waited out, and a pane with no cost line quotes `null` (no budget
 * is set here). Every other switch must fail the image or the clip, so a switch that stops failing
 * — or starts to — is seen.
 */
const RECOVERS: ReadonlySet<FailureName> = new Set([
  'dropped_download',
  'swapped_urls',
  'size_mismatch',
  'late_index',
  'poll_other_clip_first',
  'no_cost_line',
]);

type Attempt = 'image' | 'video' | 'upload';

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

/** A runtime and the profile it signed in. */
interface Runner {
  readonly gflow: Gflow;
  readonly profile: string;
}

async function attempt(
  h: ReturnType<typeof useHarness>,
  { gflow, profile }: Runner,
  kind: Attempt,
  name: FailureName,
): Promise<Reply | { thrown: Record<string, unknown> }> {
  h.sim.scenario.clearFailures();
  h.sim.scenario.setFailure(EMAIL, name, { times: 1 });
  const input = { prompt: `a lantern on a pier (${name})`, profile };
  try {
    if (kind === 'video') return (await gflow.run('generateVideo', input)) as Reply;
    if (kind === 'image') return (await gflow.run('generateImage', input)) as Reply;
    const reference = path.join(h.home, `reference-${name}.png`);
    fs.writeFileSync(reference, makePng(160, 90, name));
    return (await gflow.run('generateImage', { ...input, reference_images: [reference] })) as Reply;
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
  // A failing switch ends within a short budget (a stuck one waits it out); a recovering one runs
  // on a profile of its own whose budget only catches a hang, so a loaded machine's pace never
  // turns its recovery into a timeout.
  let quick: Runner;
  let patient: Runner;

  beforeAll(async () => {
    h.sim.scenario.createAccount({ email: EMAIL, credits: 100_000, uploadTermsAccepted: true });
    quick = { gflow: h.gflow('library', { GFLOW_CLI_TIMEOUT_SECONDS: '15' }), profile: 'env' };
    patient = { gflow: h.gflow('library', { GFLOW_CLI_TIMEOUT_SECONDS: '600' }), profile: 'patient' };
    await signInProfile(quick.gflow, h.sim, quick.profile, EMAIL);
    await signInProfile(patient.gflow, h.sim, patient.profile, EMAIL);
  }, 300_000);
  afterAll(async () => {
    await quick?.gflow.close();
    await patient?.gflow.close();
  });

  describe('every failure switch ends in an honest envelope', () => {
    const names = FAILURE_NAMES.filter((n) => !ELSEWHERE(n)).filter((_, i) => i % parts === part);
    it.each(names)(
      '%s',
      async (name) => {
        let outcome = 'completed';
        const kinds: readonly Attempt[] = UPLOAD_SWITCHES.has(name) ? ['upload'] : ['image', 'video'];
        for (const kind of kinds) {
          const reply = await attempt(h, RECOVERS.has(name) ? patient : quick, kind, name);
          if ('thrown' in reply) {
            outcome = `${kind} threw ${String(reply.thrown['type'])}: ${String(reply.thrown['detail'])}`;
            expectHonest(reply.thrown, `${name} (${kind}, thrown)`, undefined);
            break;
          }
          if (reply.status === 'completed') continue;
          expect(reply.error, `${name} (${kind}) ${reply.status}`).toBeDefined();
          outcome = `${kind} ${reply.status}: ${String(reply.error!['type'])}: ${String(reply.error!['detail'])}`;
          expectHonest(reply.error!, `${name} (${kind})`, reply.flow_project_id);
          if (reply.flow_project_id) expect(reply.error!['flow_project_id']).toBe(reply.flow_project_id);
          break;
        }
        const expected = RECOVERS.has(name) ? 'the run recovers from it' : 'it fails the run';
        expect(outcome !== 'completed', `${expected}; it ended: ${outcome}`).toBe(!RECOVERS.has(name));
      },
      180_000,
    );
  });
}
