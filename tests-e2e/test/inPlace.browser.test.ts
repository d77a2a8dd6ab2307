// Journey: references without duplicates (issue #21, seed 000 #995 / #772). A media id of the same
// project is picked in place (no upload); a local file is uploaded into a project once and
// mentioned in place afterwards; a media id of another project is uploaded there once; a
// reference Flow's picker does not list falls back to its verified local file (reference_uploaded).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePng } from '@gflow/flow-sim';
import { json } from '@gflow/testkit';
import { SANDBOX_EMAIL, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'journey-in-place', signIn: true });
const uploads = (): number => e2e.sim.received.calls('maseQ').length;

interface Generated {
  readonly status: string;
  readonly flow_project_id: string;
  readonly flow_media_id: string;
  readonly files: string[];
  readonly reference_uploaded?: boolean;
}

async function gflow(args: string[]): Promise<Generated> {
  const r = await e2e.cli([...args, '--sandbox', '--json']);
  expect(r.exitCode, r.stderr.slice(-2000)).toBe(0);
  return json(r) as unknown as Generated;
}

describe('references in place, once', () => {
  it('video i2v --initial-frame <media id of an image in the same project>: zero uploads', async () => {
    const image = await gflow(['image', 't2i', 'a red fox in fresh snow', '--aspect', '16:9']);
    e2e.sim.received.clear();
    const video = await gflow([
      'video',
      'i2v',
      'the fox runs',
      '--initial-frame',
      image.flow_media_id,
      '--aspect',
      '16:9',
    ]);
    expect(video.status).toBe('completed');
    expect(video.flow_project_id).toBe(image.flow_project_id);
    expect(uploads()).toBe(0);
    // The start frame the submit carried is the image itself.
    const body = String(e2e.sim.received.calls('eb1hJf')[0]?.inner ?? '');
    expect(body).toContain(image.flow_media_id);
    expect(video.reference_uploaded).toBeUndefined();
  }, 240_000);

  it('image i2i --ref hero.png twice uploads hero.png once; another project gets its own upload', async () => {
    const hero = path.join(e2e.home, 'hero.png');
    fs.writeFileSync(hero, makePng(640, 360, 'hero'));
    const project = e2e.sim.scenario.createProject(SANDBOX_EMAIL).id;
    e2e.sim.received.clear();
    await gflow(['image', 'i2i', 'the hero in the rain', '--ref', hero, '--project', project]);
    expect(uploads()).toBe(1);
    const second = await gflow(['image', 'i2i', 'the hero at night', '--ref', hero, '--project', project]);
    expect(uploads()).toBe(1);
    expect(second.reference_uploaded).toBeUndefined();
    // The second submit names the media the first upload became.
    const [first, again] = e2e.sim.received.calls('ogiZ0b').map((c) => String(c.inner));
    const uploadedId = /"([0-9a-f-]{36})","media"|\[null,1,"([0-9a-f-]{36})"/.exec(first ?? '');
    expect(uploadedId).not.toBeNull();
    expect(again).toContain((uploadedId?.[1] ?? uploadedId?.[2]) as string);
    const other = e2e.sim.scenario.createProject(SANDBOX_EMAIL).id;
    await gflow(['image', 'i2i', 'the hero on a hill', '--ref', hero, '--project', other]);
    expect(uploads()).toBe(2);
  }, 240_000);

  it('a media id of another project is uploaded into this one once', async () => {
    const image = await gflow(['image', 't2i', 'a lantern', '--aspect', '1:1']);
    const other = e2e.sim.scenario.createProject(SANDBOX_EMAIL).id;
    e2e.sim.received.clear();
    await gflow(['image', 'i2i', 'the lantern glows', '--ref', image.flow_media_id, '--project', other]);
    expect(uploads()).toBe(1);
    await gflow(['image', 'i2i', 'the lantern dims', '--ref', image.flow_media_id, '--project', other]);
    expect(uploads()).toBe(1);
  }, 240_000);

  it('an in-place reference the picker does not list falls back to its local file: reference_uploaded', async () => {
    const file = path.join(e2e.home, 'ghost.png');
    fs.writeFileSync(file, makePng(320, 320, 'ghost'));
    const project = e2e.sim.scenario.createProject(SANDBOX_EMAIL).id;
    await gflow(['image', 'i2i', 'a ghost', '--ref', file, '--project', project]);
    // The catalog remembers the upload under a name Flow does not list (as if it had been deleted there).
    const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => {
      prepare(sql: string): { run(...params: unknown[]): unknown };
      close(): void;
    };
    const db = new Database(e2e.dbPath);
    db.prepare("UPDATE uploads SET display_name = 'gone-from-flow.png' WHERE flow_project_id = ?").run(project);
    db.close();
    e2e.sim.received.clear();
    const again = await gflow(['image', 'i2i', 'a ghost again', '--ref', file, '--project', project]);
    expect(again.reference_uploaded).toBe(true);
    expect(uploads()).toBe(1);
  }, 240_000);
});
