// Issue 28, item 10: a video made with no --model recorded `model: null`; the result and the
// catalog now say which model ran (the one the submit's key names), and `gflow models` says what
// runs when none is named. Through the real CLI in real Chromium against the simulator.
import { describe, expect, it } from 'vitest';
import { json, jsonLines } from '@gflow/testkit';
import { useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'issue-28-model', signIn: true });
/** The video model names of the table, as `gflow models --json` lists them. */
async function videoNames(): Promise<string[]> {
  const r = await e2e.cli(['models', '--json']);
  return (json(r) as { video: { models: Array<{ name: string }> } }).video.models.map((m) => m.name);
}

describe('10. the model a video ran on is recorded', () => {
  it('video t2v without --model: params.model and the catalog row name a model of the table', async () => {
    const r = await e2e.cli(['video', 't2v', 'a lighthouse in a storm', '--sandbox', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const out = json(r) as { flow_media_id: string; params: { model: string | null } };
    expect(await videoNames()).toContain(out.params.model);

    const listed = await e2e.cli(['data', 'list', 'videos', '--sandbox', '--json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const row = jsonLines(listed).find((item) => item['media_id'] === out.flow_media_id);
    expect(row?.['model']).toBe(out.params.model);
  });

  it('a named model is recorded as named', async () => {
    const r = await e2e.cli(['video', 't2v', 'a lighthouse at dawn', '--model', 'veo_fast', '--sandbox', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((json(r) as { params: { model: string } }).params.model).toBe('veo_3_1_fast');
  });

  it('gflow models says what runs when no model is named', async () => {
    const r = await e2e.cli(['models', '--json']);
    expect((json(r) as { video: { defaults: Record<string, string | null> } }).video.defaults).toEqual({
      t2v: null,
      i2v: 'veo_3_1_lite',
      r2v: null,
    });
    const text = await e2e.cli(['models']);
    expect(text.stdout).toMatch(/^veo_3_1_lite .* i2v$/m);
    expect(text.stdout).toContain("With no --model, t2v and r2v run on the model Flow's composer has selected");
  });
});
