// Issue 28, item 8: an output name the user chose is never replaced silently, --out names files by
// media id, and a file's extension always says what its bytes are. Through the real CLI in real
// Chromium against the simulator.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json } from '@gflow/testkit';
import { submits, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'issue-28-names', signIn: true });
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

const workDir = (name: string): string => {
  const dir = path.join(e2e.home, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};

describe('8. never overwrite without --force; names follow the media id and the bytes', () => {
  it('-o naming a file that exists is refused before anything is sent, and the file is kept', async () => {
    const dir = workDir('existing');
    const kept = path.join(dir, 'shot.jpg');
    fs.writeFileSync(kept, 'mine');
    const before = submits(e2e.sim).length;
    const r = await e2e.cli(['image', 't2i', 'a fox in the snow', '-o', kept, '--sandbox', '--json']);
    expect(r.exitCode, r.stderr).toBe(2);
    const envelope = json(r) as { status: string; error: Record<string, unknown> };
    expect(envelope.status).toBe('error');
    expect(envelope.error['type']).toBe('https://gflow.dev/errors/invalid-output');
    expect(String(envelope.error['detail'])).toContain('already exists');
    expect(String(envelope.error['remediation_hint'])).toContain('--force');
    expect(submits(e2e.sim).length).toBe(before);
    expect(fs.readFileSync(kept, 'utf8')).toBe('mine');
  });

  it('--force replaces it', async () => {
    const dir = workDir('forced');
    const target = path.join(dir, 'shot.jpg');
    fs.writeFileSync(target, 'mine');
    const r = await e2e.cli(['image', 't2i', 'a fox in the snow', '-o', target, '--force', '--sandbox', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((json(r) as { files: string[] }).files).toEqual([target]);
    expect(fs.readFileSync(target).subarray(0, 3)).toEqual(JPEG);
  });

  it('-o shot.png on JPEG bytes writes shot.jpg and says so; a taken shot.jpg gets shot-2.jpg and is kept', async () => {
    const dir = workDir('renamed');
    const first = await e2e.cli(['image', 't2i', 'a fox in the snow', '-o', path.join(dir, 'shot.png'), '--sandbox']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout.split('\n')[0]).toBe(path.join(dir, 'shot.jpg'));
    expect(first.stderr).toContain('Note: shot.jpg: the file is JPG, so it is named .jpg (not .png).');
    expect(fs.existsSync(path.join(dir, 'shot.png'))).toBe(false);

    const firstBytes = fs.readFileSync(path.join(dir, 'shot.jpg'));
    const second = await e2e.cli([
      'image',
      't2i',
      'a fox in the snow',
      '-o',
      path.join(dir, 'shot.png'),
      '--sandbox',
      '--json',
    ]);
    expect(second.exitCode, second.stderr).toBe(0);
    const out = json(second) as { files: string[]; notes: string[] };
    expect(out.files).toEqual([path.join(dir, 'shot-2.jpg')]);
    expect(out.notes).toContain('shot.jpg was already there and is kept; wrote shot-2.jpg.');
    expect(fs.readFileSync(path.join(dir, 'shot.jpg'))).toEqual(firstBytes);
  });

  it('--out DIR names each file by its media id; a second run in the same second clobbers nothing', async () => {
    const dir = workDir('flat');
    const runs = [];
    for (const prompt of ['a fox in the snow', 'a hare in the snow']) {
      const r = await e2e.cli(['image', 't2i', prompt, '--out', dir, '--sandbox', '--json']);
      expect(r.exitCode, r.stderr).toBe(0);
      runs.push(json(r) as { files: string[]; flow_media_id: string });
    }
    for (const run of runs) expect(run.files).toEqual([path.join(dir, `${run.flow_media_id}.jpg`)]);
    expect(fs.readdirSync(dir).sort()).toEqual(runs.map((run) => `${run.flow_media_id}.jpg`).sort());
  });

  it('-o with --out is refused as a usage error before anything is sent', async () => {
    const before = submits(e2e.sim).length;
    const r = await e2e.cli(['image', 't2i', 'a fox', '-o', 'x.jpg', '--out', workDir('both'), '--sandbox', '--json']);
    expect(r.exitCode).toBe(2);
    expect(submits(e2e.sim).length).toBe(before);
  });
});
