// Issue 17: the simulator behaves as the real flow.google.com was seen doing, and the CLI gives
// the answer the captures call for, through the real binary in real Chromium: an image reply
// without records is a wire-format error (exit 7) with an incident bundle — never "rephrase the
// prompt" — and a clip whose URLs arrive only on as29s, 2–8 s after it is done, downloads.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filesUnder, json } from '@gflow/testkit';
import { SANDBOX_EMAIL, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'issue-17-fidelity', signIn: true });

afterEach(() => e2e.sim.scenario.clearFailures());

describe('flow-captures.md through the CLI', () => {
  it('§6 an ogiZ0b reply without records: exit 7, not retryable, the hint points at the Flow project, an incident bundle', async () => {
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'image_empty_reply');
    const r = await e2e.cli(['image', 't2i', 'a harmless teapot', '--sandbox', '--json']);
    expect(r.exitCode, r.stderr).toBe(7);
    const out = json(r);
    expect(out['status']).toBe('failed');
    const error = out['error'] as Record<string, unknown>;
    expect(error['type']).toMatch(/wire-format$/);
    expect(error['retryable']).toBe(false);
    expect(String(error['remediation_hint'])).toMatch(/may still appear in the Flow project/);
    expect(JSON.stringify(out)).not.toMatch(/rephrase/i);
    const manifests = filesUnder(path.join(e2e.sandboxHome, 'incidents')).filter((f) => f.endsWith('manifest.json'));
    expect(manifests.length).toBeGreaterThan(0);
    const manifest = JSON.parse(fs.readFileSync(manifests.at(-1)!, 'utf8')) as Record<string, unknown>;
    expect(JSON.stringify(manifest)).toMatch(/wire-format/);
  });

  it('§4 a clip whose URLs come only on as29s, seconds after it is done, downloads and plays as MP4', async () => {
    // The measured 2–8 s gap, not the scaled one the other journeys use: the product's own URL
    // grace (no test override here) must cover the real one.
    e2e.sim.scenario.setUrlDelay('measured');
    const before = e2e.sim.received.calls('as29s').length;
    const r = await e2e
      .cli(['video', 't2v', 'tide coming in', '--model', 'veo-lite', '--sandbox', '--json'])
      .finally(() => e2e.sim.scenario.setUrlDelay('scaled'));
    expect(r.exitCode, r.stderr).toBe(0);
    const asked = e2e.sim.received.calls('as29s').slice(before);
    expect((asked.at(-1)?.at ?? 0) - (asked[0]?.at ?? 0)).toBeGreaterThanOrEqual(1_500);
    const file = (json(r)['files'] as string[])[0]!;
    expect(fs.readFileSync(file).subarray(4, 8).toString('latin1')).toBe('ftyp');
  });
});
