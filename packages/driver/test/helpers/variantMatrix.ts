// The variant matrix (issue 17): the driver's core journeys, once on the simulator's defaults (what
// the original project measured on flow.google.com) and once per value of every variant switch
// for what was not measured (packages/flow-sim/src/variants.ts, README "Evidence and variants").
// The driver has no simulator branch: it must pass on every value. Real Chromium, one simulator
// per part (test/variantMatrix*.browser.test.ts run the parts).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCENE_VARIANT_VALUES, VARIANT_NAMES, VARIANT_VALUES, type Variants, makePng } from '@gflow/flow-sim';
import { createProject, downloadMediaById, renameProject, upscaleImage, upscaleVideo } from '../../src/index.js';
import { useRig } from './simSession.js';

/** The journeys of one config, each an `it` below (the defaults run them all). */
type Journey =
  | 'project'
  | 't2i'
  | 'i2i'
  | 'i2v'
  | 'r2v'
  | 'download-image'
  | 'download-video'
  | 'extend'
  | 'upscale-image'
  | 'upscale-video'
  | 'agent';

const ALL: readonly Journey[] = [
  'project',
  't2i',
  'i2i',
  'i2v',
  'r2v',
  'download-image',
  'download-video',
  'extend',
  'upscale-image',
  'upscale-video',
  'agent',
];
/** What reads an image reply or the image model menu: every image journey, the agent's images too. */
const IMAGE: readonly Journey[] = ['t2i', 'i2i', 'download-image', 'upscale-image', 'agent'];
/** What reads a video record, its URLs or its tile: every video journey, the agent's clip too. */
const VIDEO: readonly Journey[] = ['i2v', 'r2v', 'download-video', 'extend', 'upscale-video', 'agent'];

/**
 * Each switch runs the journeys that read what it changes (the simulator's code for the switch says
 * where: rpc/, wire/, assets/flow/), so a value is proved where it can break the driver, and a
 * journey it cannot reach does not run again. Switches tested elsewhere run none here: the brief
 * panel's (test/instructions.browser.test.ts drives every instruction action on each of their
 * values), the search order's (test/characters.browser.test.ts binds through same-named options on
 * each), what the composer holds after a submit, where a search reply puts thumbnails or what the
 * Frames picker lists as it opens (test/warmPage.browser.test.ts runs the warm-page and in-place
 * journeys on each), how a load shows an image still being made (test/recover.browser.test.ts finds
 * and follows one on each: no journey here loads a project while an image is pending), whether a
 * tile names its media (test/projectNames.browser.test.ts reads the names on each), and the scene
 * editor's (test/extend.browser.test.ts runs the extend journey on each value).
 */
const SCOPE: Record<keyof Variants, readonly Journey[]> = {
  // §1 the `@` media chip and the Frames chip bind references, frames and characters.
  mediaChipEntityId: ['i2i', 'i2v', 'r2v'],
  recordMarker: VIDEO,
  videoUrls: VIDEO,
  videoTileSrc: VIDEO,
  // The video model menu lists Omni 1.2 under its key: every journey that picks a video model.
  omni12Key: ['i2v', 'r2v', 'agent'],
  imageMenu: IMAGE,
  imageReply: IMAGE,
  // jHPbke / o8DA4: creating and renaming, and the title a project's page reads as it loads.
  projectReply: ['project', 't2i'],
  agentTileSrc: ['agent'],
  agentImageGate: ['agent'],
  searchOrder: [],
  searchThumbs: [],
  libraryPickerOpens: [],
  briefSave: [],
  briefRemoveConfirm: [],
  composerAfterSubmit: [],
  ...(Object.fromEntries(Object.keys(SCENE_VARIANT_VALUES).map((name) => [name, [] as readonly Journey[]])) as Record<
    keyof typeof SCENE_VARIANT_VALUES,
    readonly Journey[]
  >),
  pendingImage: [],
  tileName: [],
};

/** The defaults, then every other value of each switch on its own (with the journeys it shapes). */
const CONFIGS: ReadonlyArray<readonly [string, Partial<Variants>, readonly Journey[]]> = [
  ['the captured defaults', {}, ALL],
  ...VARIANT_NAMES.filter((name) => SCOPE[name].length > 0).flatMap((name) =>
    VARIANT_VALUES[name].slice(1).map((value) => [`${name}=${value}`, { [name]: value }, SCOPE[name]] as const),
  ),
];

/**
 * The configs of part `part` of `parts`: the one with the most journeys goes to the part with the
 * fewest so far, so the parts end together; each keeps the matrix's order within its part.
 */
function configsOfPart(part: number, parts: number): Array<(typeof CONFIGS)[number]> {
  const load = Array.from({ length: parts }, () => 0);
  const partOf = new Map<number, number>();
  const heaviestFirst = CONFIGS.map((config, index) => ({ index, journeys: config[2].length })).sort(
    (a, b) => b.journeys - a.journeys || a.index - b.index,
  );
  for (const { index, journeys } of heaviestFirst) {
    const lightest = load.indexOf(Math.min(...load));
    partOf.set(index, lightest);
    load[lightest]! += journeys;
  }
  return CONFIGS.filter((_, index) => partOf.get(index) === part);
}

const ftyp = (bytes: Buffer): string => bytes.subarray(4, 8).toString('latin1');

// Each journey may make a clip (URLs a scaled 2–8 s after it is done): generous per test.
const JOURNEY_MS = 120_000;
// The driver's own deadline is shorter, so a stalled journey ends with the driver's error (and the
// log below) and frees the session, instead of holding it while the next journeys time out too.
const DRIVER_MS = 90_000;

/**
 * Runs part `part` (0-based) of `parts` of the matrix (configsOfPart), on a simulator and Chromium
 * of its own, so the parts run side by side in the package's two workers.
 */
export function runVariantMatrix(part: number, parts: number): void {
  const rig = useRig(`driver-variant-matrix-${part + 1}`);
  const email = 'matrix@example.com';

  beforeAll(async () => {
    rig.sim.scenario.createAccount({ email, credits: 100_000, uploadTermsAccepted: true, tier: 'pro' });
    await rig.signIn(email);
  }, 60_000);

  // A failed journey says what the driver and the simulator were doing: the driver's last log lines
  // and the simulator's last calls (idle DTaVef noise left out), the page's anchors and its last
  // network entries, and a screenshot in the temp dir (a matrix run is long; a timeout says nothing).
  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    const noisy = (line: string): boolean => line.includes('DTaVef');
    const calls = rig.sim.received
      .calls()
      .filter((c) => c.rpcId !== 'DTaVef')
      .slice(-15)
      .map((c) => `${c.at} ms ${c.rpcId} ${c.httpStatus ?? ''}`);
    const snapshot = await rig.session.captureIncident().catch((error: unknown) => String(error));
    let page = '';
    if (snapshot !== null && typeof snapshot === 'object') {
      const shot = snapshot.screenshot === null ? null : path.join(rig.profileDir, `matrix-failure-${Date.now()}.png`);
      if (shot !== null && snapshot.screenshot !== null) await writeFile(shot, snapshot.screenshot);
      page = JSON.stringify({
        url: snapshot.url,
        ui: snapshot.ui,
        network: snapshot.network.slice(-12),
        screenshot: shot,
      });
    } else page = String(snapshot);
    process.stderr.write(
      `\n[matrix] ${context.task.name} failed\ndriver log:\n${rig.logs
        .filter((l) => !noisy(l))
        .slice(-40)
        .join('\n')}\n` + `simulator received:\n${calls.join('\n')}\npage:\n${page}\n`,
    );
  }, 30_000);

  describe.each(configsOfPart(part, parts))('variant matrix: %s', { timeout: JOURNEY_MS }, (label, variants, scope) => {
    let projectId: string;
    let imageId: string;
    let videoId: string;
    let videoWorkflowId: string;
    // A name whose first word (what gflow types after `@`) is this config's own: one account runs
    // every config, and the clips earlier configs titled after the same character would otherwise
    // crowd it out of the @ picker's list as the matrix grows (seen once in a full run).
    const character = { entityId: '', displayName: `Keeper${CONFIGS.findIndex(([l]) => l === label)}x Harbour` };

    // Each journey of this config's scope (the defaults: all of them), in this order.
    const journey = (name: Journey, title: string, run: () => Promise<void>): void => {
      if (scope.includes(name)) it(title, run);
    };
    const addCharacter = (): void => {
      character.entityId = rig.sim.scenario.addCharacter(projectId, { displayName: character.displayName }).entityId;
    };

    beforeAll(() => {
      rig.sim.scenario.resetVariants();
      rig.sim.scenario.setVariants(variants);
      // Without the project journey, the project and its character come from the simulator.
      if (!scope.includes('project')) {
        projectId = rig.sim.scenario.createProject(email, { title: 'Matrix run' }).id;
        addCharacter();
      }
    });

    journey('project', 'creates and renames a project (replies read by shape)', async () => {
      const created = await createProject(rig.session.context, { title: 'Matrix run' });
      expect(created.title).toBe('Matrix run');
      projectId = created.project_id;
      const renamed = await renameProject(rig.session.context, { projectId, title: 'Matrix run, renamed' });
      expect(renamed.title).toBe('Matrix run, renamed');
      addCharacter();
    });

    journey('t2i', 't2i: the default image model, the token its menu entry sends, a real image', async () => {
      const result = await rig.session.generateImage({
        projectId,
        prompt: 'a lighthouse keeper at dawn',
        model: 'nano2',
        aspect: '1:1',
        count: 1,
      });
      const item = result.items[0]!;
      expect(['BELUGA', 'NARWHAL']).toContain(item.modelKey);
      expect(rig.sim.received.calls('ogiZ0b').at(-1)?.inner).toContain(item.modelKey);
      const file = await rig.session.download(item.url, { kind: 'image' });
      expect(['.jpg', '.png']).toContain(file.extension);
      imageId = item.mediaId;
    });

    journey('i2i', 'i2i with an uploaded reference: the @ media chip binds and the body carries its id', async () => {
      const ref = path.join(rig.profileDir, `ref-${Date.now()}.png`);
      await writeFile(ref, makePng(120, 90, 'ref'));
      const result = await rig.session.generateImage({
        projectId,
        prompt: 'the same keeper in the rain',
        model: 'nano-pro',
        aspect: '16:9',
        count: 1,
        references: [{ path: ref }],
      });
      expect(result.uploads).toHaveLength(1);
      expect(rig.sim.received.calls('ogiZ0b').at(-1)?.inner).toContain(result.uploads[0]!.mediaId);
    });

    journey('i2v', 'i2v from a media id in the project: the Frames chip binds it in place, no upload', async () => {
      const name = `frame-${Date.now()}.png`;
      const { mediaId } = rig.sim.scenario.addUpload(email, projectId, name, makePng(640, 360, name));
      const uploads = rig.sim.received.calls('maseQ').length;
      const result = await rig.session.generateVideo({
        mode: 'i2v',
        projectId,
        prompt: 'the lamp turns on',
        model: 'veo_3_1_lite',
        aspect: '16:9',
        count: 1,
        startFrame: { mediaId, displayName: name },
        timeoutMs: DRIVER_MS,
      });
      expect(result.submitRpc).toBe('eb1hJf');
      expect(rig.sim.received.calls('eb1hJf').at(-1)?.inner).toContain(mediaId);
      expect(rig.sim.received.calls('maseQ').length).toBe(uploads);
      const clip = await rig.session.download(result.items[0]!.url, {
        kind: 'video',
        fallbackUrl: result.items[0]!.posterUrl ?? null,
      });
      expect(ftyp(clip.bytes)).toBe('ftyp');
      videoId = result.items[0]!.mediaId;
      videoWorkflowId = result.items[0]!.workflowId!;
    });

    journey('r2v', 'r2v with a saved character: the entity chip binds and MZZa6b carries its id', async () => {
      const result = await rig.session.generateVideo({
        mode: 'r2v',
        projectId,
        prompt: 'walks the pier',
        model: 'veo_3_1_lite',
        duration: 8,
        aspect: '9:16',
        count: 1,
        characters: [character],
        timeoutMs: DRIVER_MS,
      });
      expect(result.submitRpc).toBe('MZZa6b');
      expect(rig.sim.received.calls('MZZa6b').at(-1)?.inner).toContain(character.entityId);
    });

    journey('download-image', 'downloads an image again by media id', async () => {
      const image = await downloadMediaById(rig.session.context, { projectId, mediaId: imageId, kind: 'image' });
      expect(['.jpg', '.png']).toContain(image.extension);
    });

    journey('download-video', 'downloads a video again by media id', async () => {
      const video = await downloadMediaById(rig.session.context, { projectId, mediaId: videoId, kind: 'video' });
      expect(ftyp(video.bytes)).toBe('ftyp');
    });

    journey(
      'extend',
      'extends the clip in the scene editor: fZytfe carries its workflow id and last second; the extension downloads',
      async () => {
        const result = await rig.session.extendVideo({
          projectId,
          source: { mediaId: videoId, workflowId: videoWorkflowId, durationSeconds: 8 },
          prompt: 'the lamp keeps glowing',
          timeoutMs: DRIVER_MS,
        });
        expect(rig.sim.received.calls('fZytfe').at(-1)?.inner).toContain(`[null,"${videoWorkflowId}",169,192]`);
        const clip = await rig.session.download(result.items[0]!.url, { kind: 'video' });
        expect(ftyp(clip.bytes)).toBe('ftyp');
      },
    );

    journey('upscale-image', 'upscales the image to 2K through the detail view', async () => {
      const image = await upscaleImage(rig.session.context, { projectId, mediaId: imageId, scale: '2k' });
      expect(['.jpg', '.png']).toContain(image.extension);
    });

    journey('upscale-video', 'upscales the video to 1080p through the detail view', async () => {
      const video = await upscaleVideo(rig.session.context, {
        projectId,
        mediaId: videoId,
        scale: '1080p',
        timeoutMs: DRIVER_MS,
      });
      expect(ftyp(video.bytes)).toBe('ftyp');
    });

    journey('agent', 'agent-only composer: t2i ×2 and t2v through the agent, its settings put back', async () => {
      rig.sim.scenario.setCohort(email, 'agent_only');
      try {
        const before = rig.sim.scenario.agentSettingsOf(projectId);
        const images = await rig.session.generateImage({
          prompt: 'a kite on a beach',
          model: 'nano2',
          aspect: '3:4',
          count: 2,
          projectId,
        });
        expect(images.items).toHaveLength(2);
        const made = rig.sim.scenario.mediaOf(projectId);
        for (const item of images.items) expect(made.map((m) => m.id)).toContain(item.mediaId);
        const clip = await rig.session.generateVideo({
          mode: 't2v',
          prompt: 'surf at dawn',
          aspect: '16:9',
          count: 1,
          projectId,
          timeoutMs: DRIVER_MS,
        });
        expect(clip.items[0]?.mediaId).toBe(rig.sim.scenario.mediaOf(projectId)[0]?.id);
        expect(ftyp((await rig.session.download(clip.items[0]?.url ?? '', { kind: 'video' })).bytes)).toBe('ftyp');
        expect(rig.sim.scenario.agentSettingsOf(projectId)).toEqual(before);
      } finally {
        rig.sim.scenario.setCohort(email, 'classic');
      }
    });
  });
}
