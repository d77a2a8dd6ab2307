// `gflow doctor --live` (issue 44), the real binary against one simulator: exit 0 on the defaults
// with nothing submitted, a scratch project made once, a redacted capture bundle that holds none of
// the account's secrets, the reminder before a paid run once the check is a day old, exit 41 naming
// the control when a drift switch is on, and the local doctor's finding of that drift.
import fs from 'node:fs';
import path from 'node:path';
import { loadOperations } from '@gflow/core/surfaces';
import { json } from '@gflow/testkit/cli';
import { SANDBOX_EMAIL, SANDBOX_PROFILE, submits, useSandbox } from '@gflow/testkit/sandbox';
import { tempDir } from '@gflow/testkit';
import { afterEach, describe, expect, it } from 'vitest';

// Every operation, loaded (the surfaces' registry loads them on demand).
const OPERATIONS = await loadOperations();

const sb = useSandbox({ seed: 'doctor-live', signIn: true });
const output = OPERATIONS.find((o) => o.name === 'checkFlow')!.output;
const PROMPT = 'okapi harbour canary-secret-5521';
let scratch = '';

afterEach(() => {
  sb.sim.scenario.setDrift([]);
});

const recordFile = (): string => path.join(sb.sandboxHome, `profile_${SANDBOX_PROFILE}`, '.gflow_flow_check.json');

/** `doctor --live --sandbox`, with the simulator's log of it: nothing may be submitted or charged. */
async function live(...extra: string[]) {
  sb.sim.received.clear();
  const r = await sb.cli(['doctor', '--live', '--sandbox', ...extra]);
  expect(submits(sb.sim)).toEqual([]);
  expect(sb.sim.received.charged()).toBe(0);
  return r;
}

describe('gflow doctor --live', () => {
  it('is ok (exit 0) on the simulator, makes its scratch project once and remembers the check', async () => {
    const r = await live('--json');
    expect(r.exitCode, r.stderr.slice(-2000)).toBe(0);
    const report = output.parse(json(r)) as { status: string; project_id: string; project_created: boolean };
    expect(report).toMatchObject({ status: 'ok', exit_code: 0, profile: SANDBOX_PROFILE, project_created: true });
    scratch = report.project_id;
    const record = JSON.parse(fs.readFileSync(recordFile(), 'utf8')) as { scratch_project_id: string };
    expect(record.scratch_project_id).toBe(scratch);
    expect(fs.statSync(recordFile()).mode & 0o777).toBe(0o600);
  });

  it('reminds before a paid run once the last check is older than a day', async () => {
    const record = JSON.parse(fs.readFileSync(recordFile(), 'utf8')) as { last_check: { at: string } };
    record.last_check.at = new Date(Date.now() - 2 * 86_400_000).toISOString();
    fs.writeFileSync(recordFile(), JSON.stringify(record));
    const r = await sb.cli(['image', 't2i', PROMPT, '--project', scratch, '--sandbox', '--json']);
    expect(r.exitCode, r.stderr.slice(-2000)).toBe(0);
    expect(r.stderr).toMatch(/Flow was last checked on profile sandbox 2 days ago: all ok.*gflow doctor --live/);
  });

  it('writes a capture bundle without the prompt, email, tokens, cookies, ids or media URLs', async () => {
    const dir = path.join(tempDir('doctor-live-capture'), 'bundle');
    const r = await live('--capture', dir, '--json');
    expect(r.exitCode, r.stderr.slice(-2000)).toBe(0);
    const report = output.parse(json(r)) as { project_created: boolean; capture: { dir: string; files: string[] } };
    expect(report.project_created).toBe(false);
    expect(report.capture).toEqual({ dir, files: ['manifest.json', 'anchors.json', 'replies.json'] });
    const text = report.capture.files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
    const tokens = [...new Set(sb.sim.received.calls().map((c) => c.at_token))];
    expect(tokens.length).toBeGreaterThan(0);
    for (const secret of [PROMPT, 'okapi', SANDBOX_EMAIL, ...tokens]) expect(text.includes(secret), secret).toBe(false);
    expect(text).not.toMatch(/Signature=|Expires=|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { build_label: string };
    expect(manifest.build_label).toMatch(/^boq_labs-ai-sandbox-frontend_/);
    expect(text).toContain('arrow_forward');
  });

  it('exits 41 naming the control when Flow changed, and the doctor then warns', async () => {
    sb.sim.scenario.setDrift(['submit_icon']);
    const r = await live();
    expect(r.exitCode, r.stderr.slice(-2000)).toBe(41);
    expect(r.stdout).toMatch(/submit\.button\s+drifted/);
    expect(r.stdout).toMatch(/submit\.button: expected .*arrow_forward/);
    expect(r.stdout).toContain('Overall: drifted');

    const doctor = await sb.cli(['doctor', '--sandbox', '--json']);
    expect(doctor.exitCode).toBe(33);
    const checks = (json(doctor) as { checks: { check: string; severity: string; detail: string }[] }).checks;
    expect(checks).toContainEqual(
      expect.objectContaining({
        check: 'flow.live',
        severity: 'warn',
        detail: expect.stringContaining('submit.button'),
      }),
    );
  });
});
