// One model table (issue 17, item 4): every alias `gflow models --json` prints resolves, through
// @gflow/flow-facts, to the menu entry the driver picks and the token (images) or key family
// (videos) it then requires in the submit body. Flow's menu here is the simulator's, which keeps
// its own description of Flow (it never imports the facts), so a wrong fact shows up as a mismatch.
import {
  type ImageMenuEntry,
  type MenuEntry,
  findImageModel,
  findVideoModel,
  pickMenuCandidate,
  readVideoKey,
} from '@gflow/flow-facts';
import { IMAGE_MODELS as SIM_IMAGE_MODELS, VIDEO_MODELS as SIM_VIDEO_MODELS, expandKey } from '@gflow/flow-sim';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, json } from '@gflow/testkit/cli';

interface Printed {
  readonly name: string;
  readonly label: string;
  readonly aliases: string[];
  readonly on_flow_host?: boolean;
}

let printed: { image: { models: Printed[] }; video: { models: Printed[] } };
let text = '';

beforeAll(async () => {
  const run = await cli(['models', '--json']);
  expect(run.exitCode, run.stderr).toBe(0);
  printed = json(run) as typeof printed;
  const plain = await cli(['models']);
  expect(plain.exitCode, plain.stderr).toBe(0);
  text = plain.stdout;
}, 60_000);

/** The entry the driver clicks in a menu that offers `menu`, and that entry (or null when it refuses). */
function driverPick<T extends MenuEntry>(
  menu: readonly string[],
  candidates: readonly T[],
): { label: string; entry: T } | null {
  const pick = pickMenuCandidate(menu, candidates);
  return pick.kind === 'one' ? { label: menu[pick.index] ?? '', entry: pick.candidate } : null;
}

const simImageMenu = SIM_IMAGE_MODELS.map((m) => m.label);
/** The menu of an account that still has Nano Banana 2 and not 2.1 (flow-captures §7: never both). */
const oldImageMenu = simImageMenu.filter((label) => label !== 'Nano Banana 2.1');

describe('gflow models --json and the driver agree', () => {
  it('shows nano2 as Nano Banana 2.1, in JSON and as text', () => {
    expect(printed.image.models.find((m) => m.name === 'nano2')).toMatchObject({ label: 'Nano Banana 2.1' });
    expect(text).toMatch(/^nano2\s+Nano Banana 2\.1\s/m);
  });

  it('every image alias resolves to the entry the driver picks and the token it expects', () => {
    for (const model of printed.image.models) {
      for (const alias of [model.name, ...model.aliases]) {
        const facts = findImageModel(alias);
        expect(facts?.name, alias).toBe(model.name);
        if (facts === undefined) continue;
        const picked = driverPick<ImageMenuEntry>(simImageMenu, facts.menu);
        if (model.on_flow_host === false) {
          expect(picked, `${alias}: not in Flow's menu`).toBeNull();
          continue;
        }
        // The label gflow prints is the entry the driver clicks; its token is what Flow sends for it.
        expect(picked?.label, alias).toBe(model.label);
        expect(picked?.entry.token, alias).toBe(SIM_IMAGE_MODELS.find((m) => m.label === model.label)?.token);
      }
    }
    expect(driverPick(simImageMenu, findImageModel('nano2')?.menu ?? [])).toEqual({
      label: 'Nano Banana 2.1',
      entry: expect.objectContaining({ token: 'BELUGA' }),
    });
  });

  it('on an account still on the old menu, nano2 picks Nano Banana 2 and expects NARWHAL', () => {
    for (const alias of ['nano2', 'nano2.1', 'beluga', 'narwhal']) {
      const picked = driverPick(oldImageMenu, findImageModel(alias)?.menu ?? []);
      expect([picked?.label, picked?.entry.token], alias).toEqual(['Nano Banana 2', 'NARWHAL']);
    }
  });

  it('every video alias resolves to the entry the driver picks and the key family it checks', () => {
    const simVideoMenu = SIM_VIDEO_MODELS.map((m) => m.label);
    for (const model of printed.video.models) {
      for (const alias of [model.name, ...model.aliases]) {
        const facts = findVideoModel(alias);
        expect(facts?.name, alias).toBe(model.name);
        if (facts === undefined) continue;
        const picked = driverPick(simVideoMenu, facts.menu);
        const sim = SIM_VIDEO_MODELS.find((m) => m.label === model.label);
        if (sim === undefined) {
          // Not in the simulator's menu (Omni 1.2 Flash): the driver refuses before anything is sent.
          expect(picked, alias).toBeNull();
          continue;
        }
        expect(picked?.label, alias).toBe(model.label);
        const key = readVideoKey(expandKey(sim, 't2v', 8) ?? '');
        expect({ family: key.family, lowerPriority: key.lowerPriority }, alias).toEqual({
          family: facts.keyFamily ?? 'unknown',
          lowerPriority: facts.lowerPriority,
        });
      }
    }
  });
});
