import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, json, makeHome } from '@gflow/testkit/cli';
import { seedError, seedMedia, seedId } from './catalogSeed.js';

const jsonl = (text: string): Array<Record<string, unknown>> =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('gflow data', () => {
  it('lists nothing and exits 0 on an empty catalog', async () => {
    const home = makeHome();
    for (const what of ['projects', 'images', 'videos', 'profiles', 'errors']) {
      const r = await cli(['data', 'list', what], { home });
      expect(r.exitCode, what).toBe(0);
      expect(r.stdout, what).toBe('');
    }
  });

  it('lists a seeded catalog as JSON Lines when piped, filtered by profile, paged by --limit/--offset', async () => {
    const home = makeHome();
    await seedMedia(home, 'alice');
    await seedMedia(home, 'bob', { mediaId: 'img-2' });
    const projects = jsonl((await cli(['data', 'list', 'projects'], { home })).stdout);
    expect(projects.map((p) => p['project_id']).sort()).toEqual([seedId('proj-alice'), seedId('proj-bob')].sort());
    expect(projects[0]).toMatchObject({ image_count: 1, video_count: 1 });

    const images = await cli(['data', 'list', 'images', '--profile', 'alice', '--json'], { home });
    expect(images.exitCode).toBe(0);
    const rows = jsonl(images.stdout);
    expect(rows).toEqual([
      expect.objectContaining({
        media_id: seedId('img-1'),
        profile: 'alice',
        kind: 'image',
        prompt: 'a red fox',
        file_count: 1,
      }),
    ]);

    const videos = jsonl((await cli(['data', 'list', 'videos'], { home })).stdout);
    expect(videos.map((v) => v['media_id']).sort()).toEqual([seedId('vid-alice'), seedId('vid-bob')].sort());
    const paged = jsonl((await cli(['data', 'list', 'videos', '--limit', '1', '--offset', '1'], { home })).stdout);
    expect(paged).toHaveLength(1);
    const profiles = jsonl((await cli(['data', 'list', 'profiles'], { home })).stdout);
    expect(profiles.map((p) => p['name']).sort()).toEqual(['alice', 'bob']);

    const bad = await cli(['data', 'list', 'images', '--limit', '0'], { home });
    expect(bad.exitCode).toBe(2);
  });

  it('a listing refuses a profile neither the home nor the catalog knows (exit 2), naming the known ones', async () => {
    const home = makeHome();
    await seedMedia(home, 'alice');
    const listings = [
      ['data', 'list', 'projects'],
      ['data', 'list', 'images'],
      ['data', 'list', 'videos'],
      ['data', 'list', 'errors'],
      ['data', 'media', seedId('img-1')],
      ['data', 'prune', '--dry-run'],
      ['data', 'errors', 'export'],
      ['task', 'list'],
      ['project', 'list'],
      ['project', 'show', seedId('proj-alice')],
      ['credits', 'usage'],
    ];
    for (const args of listings) {
      const r = await cli([...args, '--profile', 'alcie'], { home });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain('Profile "alcie" is not known');
      expect(r.stderr, args.join(' ')).toContain('alice');
      // A profile the catalog knows (here without a profile directory) is read as before.
      const known = await cli([...args, '--profile', 'alice'], { home });
      expect(known.exitCode, `${args.join(' ')}: ${known.stderr}`).toBe(0);
    }
  });

  it('data media shows one asset; an id under two profiles is refused with the candidates (exit 2); an unknown id exits 32', async () => {
    const home = makeHome();
    await seedMedia(home, 'alice', { mediaId: 'shared-1' });
    await seedMedia(home, 'bob', { mediaId: 'shared-1' });
    const ambiguous = await cli(['data', 'media', seedId('shared-1')], { home });
    expect(ambiguous.exitCode).toBe(2);
    expect(ambiguous.stderr).toContain('--profile');
    expect(ambiguous.stderr).toMatch(/"profile":"alice"/);
    expect(ambiguous.stderr).toMatch(/"profile":"bob"/);
    const ambiguousJson = json(await cli(['data', 'media', seedId('shared-1'), '--json'], { home }));
    expect((ambiguousJson['error'] as Record<string, unknown>)['candidates']).toHaveLength(2);

    const one = await cli(['data', 'media', seedId('shared-1'), '--profile', 'bob', '--json'], { home });
    expect(one.exitCode).toBe(0);
    expect(json(one)).toMatchObject({
      media_id: seedId('shared-1'),
      profile: 'bob',
      prompt: 'a red fox',
      files: [expect.objectContaining({ exists: true })],
    });

    const missing = await cli(['data', 'media', seedId('nope-404')], { home });
    expect(missing.exitCode).toBe(32);
    expect(missing.stderr).toContain(`Media id ${seedId('nope-404')} is not in the local catalog.`);
  });

  it('data prune drops only rows of missing files, and --dry-run changes nothing', async () => {
    const home = makeHome();
    await seedMedia(home, 'alice');
    const { imagePath } = await seedMedia(home, 'bob', { mediaId: 'img-2' });
    fs.rmSync(imagePath);
    const dry = json(await cli(['data', 'prune', '--dry-run', '--json'], { home }));
    expect(dry).toMatchObject({ dry_run: true, checked: 2, removed: [expect.objectContaining({ path: imagePath })] });
    const real = json(await cli(['data', 'prune', '--json'], { home }));
    expect(real).toMatchObject({ dry_run: false, removed: [expect.objectContaining({ path: imagePath })] });
    const again = json(await cli(['data', 'prune', '--json'], { home }));
    expect(again).toMatchObject({ checked: 1, removed: [] });
  });

  it('data errors export writes JSON Lines of old errors; prune deletes them (dry run first)', async () => {
    const home = makeHome();
    await seedError(home, 'alice', 100);
    await seedError(home, 'alice', 120, 'network');
    await seedError(home, 'alice', 0);
    const listed = jsonl((await cli(['data', 'list', 'errors'], { home })).stdout);
    expect(listed).toHaveLength(3);

    const out = path.join(home, 'errors.jsonl');
    const exported = await cli(['data', 'errors', 'export', '--older-than', '90d', '-o', out, '--json'], { home });
    expect(exported.exitCode).toBe(0);
    expect(json(exported)).toMatchObject({ count: 2, path: out });
    const lines = jsonl(fs.readFileSync(out, 'utf8'));
    expect(lines.map((l) => l['error_type'])).toEqual(['network', 'content-policy']);

    const piped = jsonl((await cli(['data', 'errors', 'export', '--older-than', '24h'], { home })).stdout);
    expect(piped).toHaveLength(2);

    const bad = await cli(['data', 'errors', 'prune', '--older-than', 'soon'], { home });
    expect(bad.exitCode).toBe(2);
    const required = await cli(['data', 'errors', 'prune'], { home });
    expect(required.exitCode).toBe(2);

    const dry = json(await cli(['data', 'errors', 'prune', '--older-than', '90d', '--dry-run', '--json'], { home }));
    expect(dry).toMatchObject({ count: 2, dry_run: true });
    const pruned = json(await cli(['data', 'errors', 'prune', '--older-than', '90d', '--json'], { home }));
    expect(pruned).toMatchObject({ count: 2, dry_run: false });
    expect(jsonl((await cli(['data', 'list', 'errors'], { home })).stdout)).toHaveLength(1);
  });

  it('project list reads the catalog through the listProjects operation', async () => {
    const home = makeHome();
    await seedMedia(home, 'alice');
    const r = await cli(['project', 'list', '--json'], { home });
    expect(r.exitCode).toBe(0);
    expect(json(r)).toMatchObject({
      status: 'ok',
      projects: [expect.objectContaining({ project_id: seedId('proj-alice'), image_count: 1 })],
    });
    const show = await cli(['project', 'show', seedId('proj-alice'), '--json'], { home });
    expect(show.exitCode).toBe(0);
  });
});
