import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makePng } from '@gflow/flow-sim';
import { useRig } from './helpers/simSession.js';

const rig = useRig('driver-characters');
const email = 'characters@example.com';

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 5000, uploadTermsAccepted: true });
  await rig.signIn(email);
}, 60_000);

/** The `@` chips left in the composer after the run, as `type:id`. */
async function chipsOnPage(): Promise<string[]> {
  const page = rig.session.context.pages().at(-1);
  if (page === undefined) return [];
  return page
    .locator('.mention-chip')
    .evaluateAll((els) =>
      els.map((e) => `${e.getAttribute('data-reference-type') ?? ''}:${e.getAttribute('data-entity-id') ?? ''}`),
    );
}

describe('saved characters as @ mentions against the simulator', () => {
  it('r2v: binds the character as an entity chip and MZZa6b carries its entity id', async () => {
    const project = rig.sim.scenario.createProject(email);
    const ro = rig.sim.scenario.addCharacter(project.id, { displayName: 'Captain Ro' });
    const result = await rig.session.generateVideo({
      mode: 'r2v',
      projectId: project.id,
      prompt: 'the captain waves from the bridge',
      model: 'veo_3_1_lite',
      aspect: '16:9',
      count: 1,
      characters: [{ entityId: ro.entityId, displayName: 'Captain Ro' }],
      timeoutMs: 120_000,
    });
    expect(result.submitRpc).toBe('MZZa6b');
    expect(result.items).toHaveLength(1);
    expect(result.items[0]?.modelKey).toContain('_r2v_');
    const inner = rig.sim.received.calls('MZZa6b').at(-1)?.inner ?? '';
    expect(inner).toContain(ro.entityId);
    // Only the character: its thumbnail upload (a media hit of the same search) was not bound.
    expect(inner).not.toContain(ro.thumbnailMediaId);
    expect(await chipsOnPage()).toEqual([`entity:${ro.entityId}`]);
  });

  it('i2i: an uploaded reference and a character in one image; ogiZ0b carries both ids', async () => {
    const project = rig.sim.scenario.createProject(email);
    const sol = rig.sim.scenario.addCharacter(project.id, { displayName: 'Sol' });
    const file = path.join(rig.profileDir, 'beach.png');
    await writeFile(file, makePng(320, 200, 'beach'));
    const result = await rig.session.generateImage({
      projectId: project.id,
      prompt: 'Sol on the beach',
      model: 'nano2',
      aspect: '16:9',
      count: 1,
      references: [{ path: file }],
      characters: [{ entityId: sol.entityId, displayName: 'Sol' }],
    });
    expect(result.submitRpc).toBe('ogiZ0b');
    expect(result.items).toHaveLength(1);
    const [upload] = result.uploads;
    const inner = rig.sim.received.calls('ogiZ0b').at(-1)?.inner ?? '';
    expect(inner).toContain(upload?.mediaId);
    expect(inner).toContain(sol.entityId);
    // A media chip carries no entity id (flow-captures.md §1); the body above carries the upload's id.
    expect(await chipsOnPage()).toEqual(['media:', `entity:${sol.entityId}`]);
  });

  // Names repeat and the search is unranked: an option that binds the wrong chip is not tried again,
  // also when the next reply lists the options in another order (searchOrder=shuffled).
  it.each(['fixed', 'shuffled'] as const)(
    'media named exactly like the character (search order %s): their chips are removed and the character bound',
    async (searchOrder) => {
      rig.sim.scenario.setVariants({ searchOrder });
      try {
        const project = rig.sim.scenario.createProject(email);
        const mira = rig.sim.scenario.addCharacter(project.id, { displayName: 'Mira' });
        // Newer than the character's thumbnail, so the fixed order lists them first, before the character.
        const lookalikes = ['not the character', 'nor this one'].map(
          (text) => rig.sim.scenario.addUpload(email, project.id, 'Mira', makePng(64, 64, text)).mediaId,
        );
        const result = await rig.session.generateImage({
          projectId: project.id,
          prompt: 'a portrait',
          model: 'nano2',
          aspect: '1:1',
          count: 1,
          characters: [{ entityId: mira.entityId, displayName: 'Mira' }],
        });
        expect(result.items).toHaveLength(1);
        const inner = rig.sim.received.calls('ogiZ0b').at(-1)?.inner ?? '';
        expect(inner).toContain(mira.entityId);
        for (const id of lookalikes) expect(inner).not.toContain(id);
        expect(await chipsOnPage()).toEqual([`entity:${mira.entityId}`]);
      } finally {
        rig.sim.scenario.resetVariants();
      }
    },
  );

  it('a character id that is not in the project is refused before submit (32), and no chip is left', async () => {
    const project = rig.sim.scenario.createProject(email);
    rig.sim.scenario.addCharacter(project.id, { displayName: 'Nova' });
    const submits = rig.sim.received.submits().length;
    await expect(
      rig.session.generateVideo({
        mode: 'r2v',
        projectId: project.id,
        prompt: 'Nova walks',
        model: 'veo_3_1_lite',
        aspect: '16:9',
        count: 1,
        characters: [{ entityId: 'entity-not-in-this-project', displayName: 'Nova' }],
        timeoutMs: 60_000,
      }),
    ).rejects.toMatchObject({
      code: 'reference-not-found',
      exitCode: 32,
      message: expect.stringMatching(/entity entity-not-in-this-project.*Nothing was submitted/),
    });
    expect(rig.sim.received.submits().length).toBe(submits);
    expect(await chipsOnPage()).toEqual([]);
  });

  it('refuses characters on t2v, and over the model cap counted with references, before opening anything', async () => {
    const seen = () =>
      rig.sim.received.submits().length +
      rig.sim.received.calls('jHPbke').length +
      rig.sim.received.calls('maseQ').length;
    const before = seen();
    await expect(
      rig.session.generateVideo({
        mode: 't2v',
        prompt: 'x',
        aspect: '16:9',
        count: 1,
        characters: [{ entityId: 'e1', displayName: 'A' }],
        timeoutMs: 1_000,
      }),
      // The rule engine core plans with (flow-facts): the same code and words on both paths.
    ).rejects.toMatchObject({ code: 'flow-host-migrated', message: expect.stringContaining('r2v only') });
    const four = ['a', 'b', 'c', 'd'].map((n) => ({ entityId: `e-${n}`, displayName: n }));
    await expect(
      rig.session.generateVideo({
        mode: 'r2v',
        prompt: 'x',
        model: 'veo_3_1_lite',
        aspect: '16:9',
        count: 1,
        characters: four,
        timeoutMs: 1_000,
      }),
    ).rejects.toMatchObject({ code: 'bad-parameter', exitCode: 2, message: expect.stringMatching(/at most 3/) });
    await expect(
      rig.session.generateImage({
        prompt: 'x',
        model: 'nano2',
        aspect: '1:1',
        count: 1,
        characters: [{ entityId: 'e1', displayName: ' ' }],
      }),
    ).rejects.toMatchObject({ code: 'bad-parameter', exitCode: 2 });
    expect(seen()).toBe(before);
  });
});
