import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makePng } from '@gflow/flow-sim';
import { useRig } from './helpers/simSession.js';
import { downloadMediaById, type DriverProgressEvent } from '../src/index.js';
import { fetchMediaInPage } from '../src/projects/mediaFetch.js';

const rig = useRig('driver-video');
const email = 'videos@example.com';

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 5000, uploadTermsAccepted: true });
  await rig.signIn(email);
}, 60_000);

async function pngFile(name: string, w = 640, h = 360): Promise<string> {
  const file = path.join(rig.profileDir, name);
  await writeFile(file, makePng(w, h, name));
  return file;
}

describe('generateVideo against the simulator', () => {
  it('t2v: Veo Lite 8 s 9:16, follows the clip to done through the measured 2–8 s URL gap and downloads a real mp4', async () => {
    const project = rig.sim.scenario.createProject(email);
    const phases: DriverProgressEvent[] = [];
    // The URLs come 2–8 s after status 3 as measured (flow-captures.md §4), not scaled: the driver's
    // URL grace must cover the real gap.
    rig.sim.scenario.setUrlDelay('measured');
    const before = rig.sim.received.calls('as29s').length;
    const result = await rig.session
      .generateVideo({
        mode: 't2v',
        projectId: project.id,
        prompt: 'a red fox running',
        model: 'veo_3_1_lite',
        duration: 8,
        aspect: '9:16',
        count: 1,
        timeoutMs: 120_000,
        onProgress: (e) => phases.push(e),
      })
      .finally(() => rig.sim.scenario.setUrlDelay('scaled'));
    // The page asked for the URLs until they came: over the measured gap, not at once.
    const asked = rig.sim.received.calls('as29s').slice(before);
    expect((asked.at(-1)?.at ?? 0) - (asked[0]?.at ?? 0)).toBeGreaterThanOrEqual(1_500);
    expect(result.submitRpc).toBe('YhhmEf');
    expect(result.items).toHaveLength(1);
    const item = result.items[0]!;
    expect(item.modelKey).toMatch(/^veo_3_1_.*lite/);
    const file = await rig.session.download(item.url, {
      kind: 'video',
      fallbackUrl: item.posterUrl ?? null,
      expectedBytes: item.byteSize ?? null,
    });
    expect(file.extension).toBe('.mp4');
    expect(file.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const submitted = phases.find((p) => p.phase === 'submitted');
    expect(submitted?.mediaIds).toEqual([item.mediaId]);
    expect(phases.some((p) => p.phase === 'generating' && p.status !== undefined)).toBe(true);
    const sent = rig.sim.received.calls('YhhmEf');
    expect(sent.at(-1)?.inner).toContain('a red fox running');
  });

  it('i2v: uploads start and end frames under run-unique names, binds both chips, submits nprQif with both ids', async () => {
    const project = rig.sim.scenario.createProject(email);
    const start = await pngFile('start.png');
    const end = await pngFile('end.png');
    const result = await rig.session.generateVideo({
      mode: 'i2v',
      projectId: project.id,
      prompt: 'morph between',
      model: 'veo_3_1_lite',
      aspect: '16:9',
      count: 1,
      startFrame: { path: start },
      endFrame: { path: end },
      timeoutMs: 120_000,
    });
    expect(result.submitRpc).toBe('nprQif');
    expect(result.uploads.map((u) => u.displayName)).toEqual([
      expect.stringMatching(/^start-[0-9a-f]{8}\.png$/),
      expect.stringMatching(/^end-[0-9a-f]{8}\.png$/),
    ]);
    const call = rig.sim.received.calls('nprQif').at(-1);
    expect(call?.rpcidsParam).toBe('');
    for (const u of result.uploads) expect(call?.inner).toContain(u.mediaId);
    expect(result.items[0]?.url).toMatch(/^https:\/\/flow-content\.google\//);
  });

  it('i2v with a start frame only goes out as eb1hJf with the _i2v_ key', async () => {
    const project = rig.sim.scenario.createProject(email);
    const result = await rig.session.generateVideo({
      mode: 'i2v',
      projectId: project.id,
      prompt: 'the cat wakes up',
      aspect: '16:9',
      count: 1,
      startFrame: { path: await pngFile('cat.png') },
      timeoutMs: 120_000,
    });
    expect(result.submitRpc).toBe('eb1hJf');
    expect(result.items[0]?.modelKey).toContain('_i2v');
  });

  it('Omni 1.1 Flash takes a start frame (eb1hJf, an _i2v_ Omni key) and start+end frames (both ids bound)', async () => {
    const project = rig.sim.scenario.createProject(email);
    const single = await rig.session.generateVideo({
      mode: 'i2v',
      projectId: project.id,
      prompt: 'day to night',
      model: 'omni_flash',
      aspect: '16:9',
      count: 1,
      startFrame: { path: await pngFile('omni-a.png') },
      timeoutMs: 120_000,
    });
    expect(single.submitRpc).toBe('eb1hJf');
    expect(single.items[0]?.modelKey).toMatch(/^abra_i2v_/);
    expect(rig.sim.received.calls('eb1hJf').at(-1)?.inner).toContain(single.uploads[0]!.mediaId);
    const both = await rig.session.generateVideo({
      mode: 'i2v',
      projectId: project.id,
      prompt: 'day to night',
      model: 'omni_flash',
      aspect: '16:9',
      count: 1,
      startFrame: { path: await pngFile('omni-b.png') },
      endFrame: { path: await pngFile('omni-c.png') },
      timeoutMs: 120_000,
    });
    expect(both.submitRpc).toBe('nprQif');
    for (const u of both.uploads) expect(rig.sim.received.calls('nprQif').at(-1)?.inner).toContain(u.mediaId);
  });

  it('r2v: attaches uploaded references as @ mentions and submits MZZa6b with every id at 8 s', async () => {
    const project = rig.sim.scenario.createProject(email);
    const result = await rig.session.generateVideo({
      mode: 'r2v',
      projectId: project.id,
      prompt: 'the two friends dance',
      model: 'veo_3_1_lite',
      aspect: '16:9',
      count: 1,
      references: [{ path: await pngFile('alice.png', 300, 300) }, { path: await pngFile('bob.png', 300, 300) }],
      timeoutMs: 120_000,
    });
    expect(result.submitRpc).toBe('MZZa6b');
    const call = rig.sim.received.calls('MZZa6b').at(-1);
    for (const u of result.uploads) expect(call?.inner).toContain(u.mediaId);
    expect(result.items[0]?.modelKey).toContain('_r2v');
  });

  it('refuses r2v on Veo below 8 s before anything is clicked', async () => {
    const before = rig.sim.received.calls('MZZa6b').length;
    await expect(
      rig.session.generateVideo({
        mode: 'r2v',
        prompt: 'x',
        model: 'veo_3_1_lite',
        duration: 4,
        aspect: '16:9',
        count: 1,
        references: [{ path: await pngFile('z.png') }],
        timeoutMs: 10_000,
      }),
      // The rule engine core plans with (flow-facts): the same code and words on both paths.
    ).rejects.toMatchObject({
      code: 'bad-parameter',
      exitCode: 2,
      message: expect.stringContaining('accepts only duration 8'),
    });
    expect(rig.sim.received.calls('MZZa6b').length).toBe(before);
  });

  it('follows its own clip when a project-wide poll lists another clip first, and tries the other URL slot when they are swapped', async () => {
    const project = rig.sim.scenario.createProject(email);
    rig.sim.scenario.setFailure(email, 'poll_other_clip_first');
    rig.sim.scenario.setFailure(email, 'swapped_urls', { times: 1 });
    try {
      const result = await rig.session.generateVideo({
        mode: 't2v',
        projectId: project.id,
        prompt: 'waves at night',
        model: 'veo_3_1_fast',
        duration: 4,
        aspect: '16:9',
        count: 1,
        timeoutMs: 120_000,
      });
      const item = result.items[0]!;
      expect(item.modelKey).toMatch(/fast/);
      const file = await rig.session.download(item.url, { kind: 'video', fallbackUrl: item.posterUrl ?? null });
      expect(file.extension).toBe('.mp4');
      expect(rig.logs.some((l) => l.includes('trying the other URL slot'))).toBe(true);
      // flow-captures.md §3: download by media id reads the same swapped record and tries the other slot too.
      const again = await downloadMediaById(rig.session.context, {
        projectId: project.id,
        mediaId: item.mediaId,
        kind: 'video',
      });
      expect(again.extension).toBe('.mp4');
      expect(again.bytes.equals(file.bytes)).toBe(true);
    } finally {
      rig.sim.scenario.clearFailures();
    }
  });

  it("a loaded tile's /asb/ video URL is followed through its googlevideo redirect (flow-captures.md §2)", async () => {
    const project = rig.sim.scenario.createProject(email);
    const result = await rig.session.generateVideo({
      mode: 't2v',
      projectId: project.id,
      prompt: 'a kite on the wind',
      model: 'veo_3_1_lite',
      aspect: '16:9',
      count: 1,
      timeoutMs: 120_000,
    });
    const mediaId = result.items[0]!.mediaId;
    const page = await rig.session.context.newPage();
    try {
      await page.goto(`https://flow.google.com/project/${project.id}`);
      const tile = page.locator('flow-video-tile').filter({ has: page.locator(`img[data-media-id="${mediaId}"]`) });
      await tile.hover();
      const src = await tile
        .locator('video')
        .evaluate((v) => (v as HTMLVideoElement).currentSrc || (v as HTMLVideoElement).src);
      expect(new URL(src).pathname).toMatch(/^\/asb\//);
      const fetched = await fetchMediaInPage(page, src, { kind: 'video', mediaId });
      expect(fetched.extension).toBe('.mp4');
    } finally {
      await page.close();
    }
  });

  it('binds a frame on a cohort whose picker needs "Add to prompt" and lists fresh uploads late', async () => {
    const project = rig.sim.scenario.createProject(email);
    rig.sim.scenario.updateAccount(email, { pickerCommit: 'confirm' });
    rig.sim.scenario.setFailure(email, 'late_index', { searches: 2 });
    try {
      const result = await rig.session.generateVideo({
        mode: 'i2v',
        projectId: project.id,
        prompt: 'leaves falling',
        model: 'veo_3_1_fast',
        aspect: '16:9',
        count: 1,
        startFrame: { path: await pngFile('leaf.png') },
        timeoutMs: 120_000,
      });
      expect(result.submitRpc).toBe('eb1hJf');
      expect(rig.sim.received.calls('eb1hJf').at(-1)?.inner).toContain(result.uploads[0]?.mediaId);
    } finally {
      rig.sim.scenario.updateAccount(email, { pickerCommit: 'click' });
      rig.sim.scenario.clearFailures();
    }
  });

  it('matches translated duration labels by their number token and avoids the Lower Priority twin', async () => {
    const project = rig.sim.scenario.createProject(email);
    rig.sim.scenario.setLocale('vi-VN');
    rig.sim.scenario.updateAccount(email, { lowerPriority: true });
    try {
      const result = await rig.session.generateVideo({
        mode: 't2v',
        projectId: project.id,
        prompt: 'con mèo ngủ',
        model: 'veo_3_1_lite',
        duration: 4,
        aspect: '16:9',
        count: 1,
        timeoutMs: 120_000,
      });
      const key = result.items[0]?.modelKey ?? '';
      expect(key).toMatch(/lite/);
      expect(key).toMatch(/_4s/);
      expect(key).not.toMatch(/low(er)?_priority/);
    } finally {
      rig.sim.scenario.setLocale('en-US');
      rig.sim.scenario.updateAccount(email, { lowerPriority: false });
    }
  });

  it('makes two clips in one submit and follows both', async () => {
    const project = rig.sim.scenario.createProject(email);
    const result = await rig.session.generateVideo({
      mode: 't2v',
      projectId: project.id,
      prompt: 'two kites',
      model: 'omni_flash',
      duration: 6,
      resolution: '360p',
      aspect: '16:9',
      count: 2,
      timeoutMs: 120_000,
    });
    expect(result.items).toHaveLength(2);
    expect(new Set(result.items.map((i) => i.mediaId)).size).toBe(2);
    expect(result.items[0]?.modelKey).toBe('abra_t2v_6s');
  });
});
