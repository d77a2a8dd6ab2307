// Journey: spend control (issue 24). The quote Flow shows before the click is in every result and
// in the catalog's ledger; --dry-run / dry_run submit nothing; the per-call cap and the daily
// budget refuse before the click (budget-exceeded, exit 40) and allow under it; a pane without a
// cost line under a budget fails closed. Real CLI and MCP children against the simulator.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePng } from '@gflow/flow-sim';
import { json } from '@gflow/testkit';
import { SANDBOX_EMAIL, submits, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'journey-spend', signIn: true });

/** Omni 1.1 Flash, 720p, 8 s, ×1: 12 credits (flow-wire §4, measured; the simulator's table). */
const OMNI = ['--model', 'omni-flash', '--resolution', '720p', '--duration', '8'];

interface Problem {
  readonly type: string;
  readonly detail: string;
  readonly remediation_hint?: string;
  readonly exit_code?: number;
  readonly [key: string]: unknown;
}

const problemOf = (envelope: Record<string, unknown>): Problem => envelope['error'] as Problem;

async function today(): Promise<number> {
  const usage = json(await e2e.cli(['credits', 'usage', '--days', '1', '--sandbox', '--json']));
  return (usage['today'] as { quoted: number }).quoted;
}

describe('journey: spend control', () => {
  it('video t2v --dry-run prints the quote and the balance and submits nothing', async () => {
    e2e.sim.received.clear();
    const balance = e2e.sim.scenario.getCredits(SANDBOX_EMAIL);
    const run = await e2e.cli(['video', 't2v', 'waves at dusk', ...OMNI, '--dry-run', '--sandbox', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const estimate = json(run);
    expect(estimate).toMatchObject({
      status: 'estimated',
      credits_quoted: 12,
      balance,
      plan: { mode: 't2v', model: 'omni-flash', quote_source: 'cost-line', submitted: 'nothing', affordable: true },
      budget: { would_refuse: null },
      uploads: [],
    });
    expect(submits(e2e.sim)).toEqual([]);
    expect(e2e.sim.scenario.getCredits(SANDBOX_EMAIL)).toBe(balance);
    // The estimate is in the ledger, apart: it does not count toward the day.
    const usage = json(await e2e.cli(['credits', 'usage', '--sandbox', '--json']));
    expect(usage).toMatchObject({ estimates: { count: 1, quoted: 12 }, today: { quoted: 0 } });
  }, 120_000);

  it('dry runs without a project read their quotes in one scratch project, made once', async () => {
    e2e.sim.received.clear();
    const scratch = () =>
      e2e.sim.scenario.projectsOf(SANDBOX_EMAIL).filter((p) => p.title.startsWith('gflow canary (scratch'));
    const dryRun = async (prompt: string) => {
      const run = await e2e.cli(['video', 't2v', prompt, ...OMNI, '--dry-run', '--sandbox', '--json']);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(json(run)).toMatchObject({ status: 'estimated', credits_quoted: 12 });
    };
    await dryRun('a fox at dawn');
    const projects = e2e.sim.scenario.projectsOf(SANDBOX_EMAIL).length;
    await dryRun('a heron at noon');
    await dryRun('an owl at midnight');
    expect(scratch()).toHaveLength(1);
    expect(e2e.sim.scenario.projectsOf(SANDBOX_EMAIL)).toHaveLength(projects);
    expect(submits(e2e.sim)).toEqual([]);
  }, 120_000);

  it('video i2v --dry-run with a local start frame: the upload it had to make is reported, nothing is submitted', async () => {
    const frame = path.join(e2e.home, 'dawn.png');
    fs.writeFileSync(frame, makePng(640, 360, 'dawn'));
    e2e.sim.received.clear();
    const run = await e2e.cli([
      'video',
      'i2v',
      'it wakes',
      '--initial-frame',
      frame,
      '--dry-run',
      '--sandbox',
      '--json',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const estimate = json(run);
    expect(estimate).toMatchObject({ status: 'estimated', credits_quoted: expect.any(Number) });
    const uploads = estimate['uploads'] as Array<{ display_name: string; media_id: string }>;
    expect(uploads).toEqual([
      { display_name: expect.stringMatching(/^dawn-[0-9a-f]{8}\.png$/), media_id: expect.any(String) },
    ]);
    expect(e2e.sim.received.calls('maseQ')).toHaveLength(1);
    expect(submits(e2e.sim)).toEqual([]);
  }, 120_000);

  it('GFLOW_CLI_DAILY_CREDIT_BUDGET=20: the first 12-credit video passes, the second is refused and nothing is sent', async () => {
    const env = { GFLOW_CLI_DAILY_CREDIT_BUDGET: '20' };
    expect(await today()).toBe(0);
    e2e.sim.received.clear();
    const balance = e2e.sim.scenario.getCredits(SANDBOX_EMAIL);
    const first = await e2e.cli(['video', 't2v', 'a kite rises', ...OMNI, '--sandbox', '--json'], { env });
    expect(first.exitCode, first.stderr).toBe(0);
    // The quote read before the click, and what a balance read measured after the clip.
    expect(json(first)).toMatchObject({ status: 'completed', credits_quoted: 12, credits_spent: 12 });
    expect(e2e.sim.scenario.getCredits(SANDBOX_EMAIL)).toBe(balance - 12);
    expect(submits(e2e.sim)).toEqual(['YhhmEf']);

    const second = await e2e.cli(['video', 't2v', 'the kite dips', ...OMNI, '--sandbox', '--json'], { env });
    expect(second.exitCode, second.stdout).toBe(40);
    const refused = json(second);
    expect(refused).toMatchObject({ status: 'failed', credits_quoted: 12 });
    const problem = problemOf(refused);
    expect(problem.type).toBe('https://gflow.dev/errors/budget-exceeded');
    expect(problem).toMatchObject({ budget: 'daily', today_total: 12, limit: 20, retryable: false });
    expect(problem.remediation_hint).toContain('GFLOW_CLI_DAILY_CREDIT_BUDGET');
    expect(problem.remediation_hint).toContain('12 credits of 20');
    expect(submits(e2e.sim)).toEqual(['YhhmEf']); // nothing more was sent
    expect(e2e.sim.scenario.getCredits(SANDBOX_EMAIL)).toBe(balance - 12);

    // A terminal (no --json) gets the problem's words and exit 40 too.
    const plain = await e2e.cli(['video', 't2v', 'once more', ...OMNI, '--sandbox'], { env });
    expect(plain.exitCode).toBe(40);
    expect(plain.stderr).toMatch(/daily budget of 20/);
    // An 8-credit clip still fits under 20 (Veo Lite 8 s = 10 would not: 12 + 10 > 20).
    const small = await e2e.cli(
      ['video', 't2v', 'a short one', '--model', 'omni-flash', '--duration', '4', '--sandbox', '--json'],
      { env },
    );
    expect(json(small)).toMatchObject({ status: 'completed', credits_quoted: 6 });
    expect(await today()).toBe(18);
  }, 240_000);

  it('the per-call cap refuses above it and allows at it; --max-credits only lowers it', async () => {
    e2e.sim.received.clear();
    const capped = await e2e.cli(['video', 't2v', 'too dear', ...OMNI, '--sandbox', '--json'], {
      env: { GFLOW_CLI_MAX_CREDITS_PER_CALL: '11' },
    });
    expect(capped.exitCode).toBe(40);
    expect(problemOf(json(capped))).toMatchObject({
      budget: 'per_call',
      limit: 11,
      setting: 'GFLOW_CLI_MAX_CREDITS_PER_CALL',
    });
    // --max-credits above the configured cap does not raise it.
    const raised = await e2e.cli(
      ['video', 't2v', 'still too dear', ...OMNI, '--max-credits', '500', '--sandbox', '--json'],
      {
        env: { GFLOW_CLI_MAX_CREDITS_PER_CALL: '11' },
      },
    );
    expect(problemOf(json(raised))).toMatchObject({ budget: 'per_call', limit: 11 });
    const lowered = await e2e.cli(['video', 't2v', 'lowered', ...OMNI, '--max-credits', '5', '--sandbox', '--json'], {
      env: { GFLOW_CLI_MAX_CREDITS_PER_CALL: '50' },
    });
    expect(problemOf(json(lowered))).toMatchObject({
      budget: 'per_call',
      limit: 5,
      setting: 'max_credits (--max-credits)',
    });
    expect(submits(e2e.sim)).toEqual([]);
    const atCap = await e2e.cli(['video', 't2v', 'just right', ...OMNI, '--max-credits', '12', '--sandbox', '--json']);
    expect(json(atCap)).toMatchObject({ status: 'completed', credits_quoted: 12 });
    expect(submits(e2e.sim)).toEqual(['YhhmEf']);
  }, 240_000);

  it('a pane without a cost line: credits_quoted null and a warning without a budget; refused (fail closed) with one', async () => {
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'no_cost_line');
    try {
      e2e.sim.received.clear();
      const closed = await e2e.cli(['image', 't2i', 'unquoted', '--sandbox', '--json'], {
        env: { GFLOW_CLI_DAILY_CREDIT_BUDGET: '1000' },
      });
      expect(closed.exitCode).toBe(40);
      const problem = problemOf(json(closed));
      expect(problem).toMatchObject({ budget: 'unreadable_quote', credits_quoted: null });
      expect(problem.detail).toContain('fail closed');
      expect(submits(e2e.sim)).toEqual([]);

      const open = await e2e.cli(['image', 't2i', 'unquoted but free to go', '--sandbox', '--json']);
      expect(open.exitCode, open.stderr).toBe(0);
      expect(json(open)).toMatchObject({ status: 'completed', credits_quoted: null });
      expect(open.stderr).toContain('no readable credit quote');
      expect(submits(e2e.sim)).toEqual(['ogiZ0b']);
    } finally {
      e2e.sim.scenario.clearFailure(SANDBOX_EMAIL, 'no_cost_line');
    }
  }, 240_000);

  it('several prompts with --dry-run: every one estimated, nothing submitted', async () => {
    e2e.sim.received.clear();
    const run = await e2e.cli([
      'image',
      't2i',
      'a fox',
      'a hare',
      '--model',
      'nano-pro',
      '--dry-run',
      '--jitter',
      '0',
      '--sandbox',
      '--json',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const batch = json(run);
    // A dry run of several prompts is `estimated`, like one prompt's (issue 41): nothing was made.
    expect(batch).toMatchObject({
      status: 'estimated',
      credits_quoted: 10,
      items: [
        { status: 'estimated', credits_quoted: 5 },
        { status: 'estimated', credits_quoted: 5 },
      ],
    });
    expect(submits(e2e.sim)).toEqual([]);
  }, 240_000);

  it('MCP: dry_run estimates, max_credits refuses, the quote is in the result', async () => {
    const conn = await e2e.mcpStdio(['--sandbox']);
    try {
      e2e.sim.received.clear();
      const estimate = await conn.call('gflow_generate_video', {
        prompt: 'a lighthouse at dusk',
        model: 'omni_flash',
        resolution: '720p',
        duration: 8,
        dry_run: true,
      });
      expect(estimate.isError).toBe(false);
      expect(estimate.structured).toMatchObject({ status: 'estimated', credits_quoted: 12 });
      const refused = await conn.call('gflow_generate_video', {
        prompt: 'a lighthouse at dusk',
        model: 'omni_flash',
        resolution: '720p',
        duration: 8,
        max_credits: 11,
      });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.structured)).toContain('budget-exceeded');
      expect(submits(e2e.sim)).toEqual([]);
      const stats = await conn.call('gflow_usage_stats', { weeks: 1 });
      const credits = stats.structured['credits'] as { total: { quoted: number }; estimates: { count: number } };
      expect(credits.total.quoted).toBeGreaterThanOrEqual(12 + 6 + 12);
      expect(credits.estimates.count).toBeGreaterThanOrEqual(4);
    } finally {
      await conn.close();
    }
  }, 240_000);
});
