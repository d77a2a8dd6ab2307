// Journey: extend a clip (issue 39) — `gflow video extend MEDIA_ID "prompt"` on a clip gflow made:
// the page itself sends one `fZytfe` whose source slot is the clip's workflow id (never its media
// id: flow-captures §10, billed and never made) and whose frame window is the clip's last second at
// 24 fps; the extension is saved as a video with its lineage to the source, and stitched to it with
// a one-second overlap; an extension, its length measured from its bytes, extends in turn. Bad
// sources are refused before anything opens, naming media_id.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { json } from '@gflow/testkit';
import { submits, useSandbox } from '@gflow/testkit/sandbox';
import { catalogRows } from './helpers/catalog.js';

const e2e = useSandbox({ seed: 'journey-extend', signIn: true });

interface Made {
  readonly status: string;
  readonly task_type: string;
  readonly flow_project_id: string;
  readonly flow_media_id: string;
  readonly flow_workflow_id: string;
  readonly files: string[];
}

async function made(args: readonly string[]): Promise<Made> {
  const r = await e2e.cli([...args, '--sandbox', '--json', '--progress', 'off']);
  expect(r.exitCode, r.stderr.slice(-2000)).toBe(0);
  return json(r) as unknown as Made;
}

/** The source slot and frame window of one fZytfe submit (flow-captures §10's inner layout). */
function extendRequestOf(inner: string): { source: unknown; window: unknown[] } {
  const [requests] = JSON.parse(inner) as [unknown[][]];
  const head = (requests[0] as unknown[])[0] as unknown[];
  return { source: head[1], window: head.slice(2, 4) };
}

describe('video extend', () => {
  it('continues a t2v clip: one fZytfe naming its workflow id and its last second; the extension is a video of its project, with its lineage, and stitches to it', async () => {
    const source = await made(['video', 't2v', 'waves at dusk, the camera pans right']);
    e2e.sim.received.clear();

    const extension = await made(['video', 'extend', source.flow_media_id, 'the camera keeps moving']);
    expect(extension).toMatchObject({
      status: 'completed',
      task_type: 'extend',
      flow_project_id: source.flow_project_id,
    });
    expect(extension.flow_media_id).not.toBe(source.flow_media_id);
    expect(fs.statSync(extension.files[0] as string).size).toBeGreaterThan(1000);

    expect(submits(e2e.sim)).toEqual(['fZytfe']);
    const sent = extendRequestOf(String(e2e.sim.received.calls('fZytfe')[0]?.inner));
    expect(sent.source).toBe(source.flow_workflow_id);
    // The clip is the 8 s base tier (its key has no duration segment): frames 169–192.
    expect(sent.window).toEqual([169, 192]);

    const shown = await e2e.cli(['data', 'media', extension.flow_media_id, '--sandbox', '--json']);
    expect(json(shown)).toMatchObject({ kind: 'video', project_id: source.flow_project_id });
    // Lineage: the extension's operation used the source clip and made the extension.
    const links = catalogRows(
      e2e.dbPath,
      `SELECT a.flow_media_id AS media, oa.role AS role FROM operation_assets oa JOIN assets a ON a.id = oa.asset_id
       WHERE oa.operation_id = (SELECT l.operation_id FROM operation_assets l JOIN assets x ON x.id = l.asset_id
         WHERE x.flow_media_id = '${extension.flow_media_id}' AND l.role = 'output')
       ORDER BY oa.role`,
    );
    expect(links).toEqual([
      { media: source.flow_media_id, role: 'input' },
      { media: extension.flow_media_id, role: 'output' },
    ]);

    const long = `${e2e.home}/long.mp4`;
    const stitched = await e2e.cli([
      'video',
      'stitch',
      source.flow_media_id,
      extension.flow_media_id,
      '-o',
      long,
      '--overlap',
      '1',
      '--sandbox',
      '--json',
    ]);
    expect(stitched.exitCode, stitched.stderr).toBe(0);
    const whole = json(stitched) as { seconds: number; clips: Array<{ seconds: number; trimmed_seconds: number }> };
    // The source is 8 s (the frame window above), its last second trimmed: the extension repeats it.
    const [first, second] = whole.clips;
    expect(first).toMatchObject({ trimmed_seconds: 1 });
    expect((first?.seconds ?? 0) + (first?.trimmed_seconds ?? 0)).toBeCloseTo(8, 1);
    expect(whole.seconds).toBeCloseTo((first?.seconds ?? 0) + (second?.seconds ?? 0), 1);

    // An extension extends in turn: its length is measured from its bytes (7 s here, as §10's
    // capture), so the next submit names its workflow id and its own last second.
    e2e.sim.received.clear();
    const further = await made(['video', 'extend', extension.flow_media_id, 'and then it rains']);
    expect(further).toMatchObject({ status: 'completed', task_type: 'extend' });
    const next = extendRequestOf(String(e2e.sim.received.calls('fZytfe')[0]?.inner));
    expect(next.source).toBe(extension.flow_workflow_id);
    expect(next.window).toEqual([145, 168]);
  }, 240_000);

  it('refuses a source it cannot extend before anything opens: an unknown media id (32), an image (2), an Omni model (2)', async () => {
    const image = await made(['image', 't2i', 'a lighthouse', '--aspect', '1:1']);
    e2e.sim.received.clear();

    const unknown = await e2e.cli([
      'video',
      'extend',
      '0a1b2c3d-0000-4000-8000-00000000ffff',
      'go on',
      '--sandbox',
      '--json',
    ]);
    expect(unknown.exitCode).toBe(32);
    expect(json(unknown)).toMatchObject({ error: { parameter: 'media_id' } });

    const notVideo = await e2e.cli(['video', 'extend', image.flow_media_id, 'go on', '--sandbox', '--json']);
    expect(notVideo.exitCode).toBe(2);
    expect(String((json(notVideo) as { error: { detail: string } }).error.detail)).toMatch(/only a video/);

    const omni = await e2e.cli(['video', 'extend', image.flow_media_id, 'go on', '--model', 'omni_flash', '--sandbox']);
    expect(omni.exitCode).toBe(2);
    expect(omni.stderr).toMatch(/Veo 3\.1 models only/);
    expect(submits(e2e.sim)).toEqual([]);
  }, 120_000);
});
