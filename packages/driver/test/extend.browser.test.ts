// FlowSession.extendVideo (flow-captures.md §10) against the simulator: the journey on the captured
// defaults and on every value of the scene editor's [U] switches (packages/flow-sim/src/sceneVariants.ts;
// the variant matrix runs one extend per config of the other switches), the submit guard refusing
// a media id in the source slot before it leaves, the quote and the spend checkpoint, and a model
// the menu does not offer. Real Chromium, one simulator, one session.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCENE_VARIANT_VALUES, type Variants } from '@gflow/flow-sim';
import { hasErrorCode } from '@gflow/errors';
import type { ExtendSource, FlowExtensionResult } from '../src/extend/extendTypes.js';
import { useRig } from './helpers/simSession.js';

const rig = useRig('driver-extend');
const email = 'extend@example.com';
let projectId = '';
let source: ExtendSource;
const DRIVER_MS = 90_000;

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 100_000, uploadTermsAccepted: true });
  await rig.signIn(email);
  projectId = rig.sim.scenario.createProject(email).id;
  const made = await rig.session.generateVideo({
    mode: 't2v',
    projectId,
    prompt: 'a slow pan to the right over the harbour',
    model: 'veo_3_1_lite',
    duration: 8,
    aspect: '16:9',
    count: 1,
    timeoutMs: DRIVER_MS,
  });
  const item = made.items[0]!;
  source = { mediaId: item.mediaId, workflowId: item.workflowId!, durationSeconds: 8 };
}, 120_000);

afterEach(() => {
  rig.sim.scenario.resetVariants();
  rig.sim.scenario.clearFailures();
});

/** Frames of an MP4, from its sample table (`stsz` sample count). */
function mp4Frames(bytes: Buffer): number {
  const stsz = bytes.indexOf(Buffer.from('stsz', 'latin1'));
  return bytes.readUInt32BE(stsz + 12);
}

function lastExtendInner(): unknown[] {
  const call = rig.sim.received.calls('fZytfe').at(-1);
  if (call === undefined) throw new Error('the simulator received no fZytfe');
  return JSON.parse(call.inner) as unknown[];
}

function sourceSlot(inner: unknown[]): unknown[] {
  return ((inner[0] as unknown[][])[0] as unknown[])[0] as unknown[];
}

async function extend(from: ExtendSource, model?: 'veo_3_1_lite' | 'veo_3_1_fast'): Promise<FlowExtensionResult> {
  return rig.session.extendVideo({
    projectId,
    source: from,
    prompt: 'the camera keeps moving',
    ...(model === undefined ? {} : { model }),
    timeoutMs: DRIVER_MS,
  });
}

/** The captured defaults, then every other value of each scene switch on its own. */
const CONFIGS: ReadonlyArray<readonly [string, Partial<Variants>]> = [
  ['the captured defaults', {}],
  ...(Object.entries(SCENE_VARIANT_VALUES) as [keyof typeof SCENE_VARIANT_VALUES, readonly string[]][]).flatMap(
    ([name, values]) => values.slice(1).map((value) => [`${name}=${value}`, { [name]: value }] as const),
  ),
];

describe.each(CONFIGS)('extendVideo on %s', { timeout: 120_000 }, (_label, variants) => {
  it("sends fZytfe with the clip's workflow id and its last second, and returns the new clip, a real MP4 of the extension's length", async () => {
    rig.sim.scenario.setVariants(variants);
    const result = await extend(source);
    const inner = lastExtendInner();
    expect(sourceSlot(inner)).toEqual([null, source.workflowId, 169, 192]);
    expect(result.frameWindow).toEqual([169, 192]);
    expect(result.submitRpc).toBe('fZytfe');
    expect(rig.sim.scenario.sceneClips(result.sceneId)).toContain(source.mediaId);
    const [item] = result.items;
    expect(result.items).toHaveLength(1);
    const made = rig.sim.scenario.clipOf(item!.mediaId);
    expect(item!.workflowId).toBe(made.workflowId);
    expect(made.extendsFrom?.mediaId).toBe(source.mediaId);
    expect(item!.modelKey).toMatch(/^veo_/);
    expect(result.quote?.credits).toBe(Math.ceil((10 * made.seconds) / 8));
    const clip = await rig.session.download(item!.url, { kind: 'video', expectedBytes: item!.byteSize ?? null });
    expect(clip.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(mp4Frames(clip.bytes)).toBe(Number(rig.sim.scenario.getVariants().extendLength) * 24);
  });
});

describe('extendVideo', { timeout: 120_000 }, () => {
  it('extends an extension (its own last second) and another Veo model where the menu offers it', async () => {
    rig.sim.scenario.setVariants({ extendModels: 'veo-all' });
    const first = await extend(source);
    const item = first.items[0]!;
    const second = await extend(
      { mediaId: item.mediaId, workflowId: item.workflowId!, durationSeconds: 7 },
      'veo_3_1_fast',
    );
    expect(sourceSlot(lastExtendInner())).toEqual([null, item.workflowId, 145, 168]);
    expect(second.items[0]!.modelKey).toContain('fast');
    expect(rig.sim.scenario.clipOf(second.items[0]!.mediaId).extendsFrom?.mediaId).toBe(item.mediaId);
  });

  it('refuses a body with the media id in the source slot before it leaves: the simulator receives no fZytfe, nothing is billed', async () => {
    rig.sim.scenario.setFailure(email, 'wrong_submit_body');
    const sent = rig.sim.received.calls('fZytfe').length;
    const credits = rig.sim.scenario.getCredits(email);
    const error = await extend(source).catch((e: unknown) => e);
    expect(hasErrorCode(error, 'wire-format')).toBe(true);
    expect((error as { extensions: Record<string, unknown> }).extensions).toMatchObject({
      submit_blocked: true,
      may_have_spent: false,
    });
    expect(String((error as Error).message)).toMatch(/media id .* never schedules/);
    expect(rig.sim.received.calls('fZytfe')).toHaveLength(sent);
    expect(rig.sim.scenario.getCredits(email)).toBe(credits);
  });

  it('reports submitting before the click and hands the quote to beforeSubmit; "stop" clicks nothing', async () => {
    const sentAt: Record<string, number> = {};
    const quotes: unknown[] = [];
    const sent = rig.sim.received.calls('fZytfe').length;
    const stopped = await rig.session.extendVideo({
      projectId,
      source,
      prompt: 'a dry run',
      timeoutMs: DRIVER_MS,
      beforeSubmit: async (quote) => {
        quotes.push(quote);
        return 'stop';
      },
    });
    expect(stopped.stopped).toBe('before-submit');
    expect(stopped.items).toHaveLength(0);
    expect(quotes).toEqual([expect.objectContaining({ credits: 9, source: 'cost-line', balance: expect.any(Number) })]);
    expect(rig.sim.received.calls('fZytfe')).toHaveLength(sent);
    await rig.session.extendVideo({
      projectId,
      source,
      prompt: 'for real',
      timeoutMs: DRIVER_MS,
      onProgress: (event) => {
        sentAt[event.phase] ??= rig.sim.received.calls('fZytfe').length;
      },
    });
    expect(sentAt['submitting']).toBe(sent);
    expect(sentAt['submitted']).toBe(sent + 1);
  });

  it('a model the extend menu does not offer is ExtendUnavailableError (35), nothing sent', async () => {
    const sent = rig.sim.received.calls('fZytfe').length;
    const error = await extend(source, 'veo_3_1_fast').catch((e: unknown) => e);
    expect(hasErrorCode(error, 'extend-unavailable')).toBe(true);
    expect(String((error as Error).message)).toContain('Extend (Veo 3.1 - Lite)');
    expect(rig.sim.received.calls('fZytfe')).toHaveLength(sent);
  });

  it('refuses, before opening anything, a source whose workflow id is its media id or a non-Veo model', async () => {
    const pages = rig.sim.received.pages().length;
    const same = await rig.session
      .extendVideo({ projectId, source: { ...source, workflowId: source.mediaId }, prompt: 'x', timeoutMs: 1_000 })
      .catch((e: unknown) => e);
    expect(hasErrorCode(same, 'configuration')).toBe(true);
    const omni = await rig.session
      .extendVideo({ projectId, source, prompt: 'x', model: 'omni_flash', timeoutMs: 1_000 })
      .catch((e: unknown) => e);
    expect(String((omni as Error).message)).toMatch(/Veo 3.1 models only/);
    expect(rig.sim.received.pages()).toHaveLength(pages);
  });
});
