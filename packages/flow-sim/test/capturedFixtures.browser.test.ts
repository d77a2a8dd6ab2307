// Captured fixtures (src/capture/captureFixture.ts; scripts/captureToFixtures.ts turns a
// `gflow doctor --live --capture` bundle into one): the simulator, under each fixture's variants,
// walks the same controls the canary walks, and must show every name the captured anchors carried
// and send replies that fit every captured reply shape. A real-world capture that does not fit is a
// failing contract test: change the simulator's default, or add a variant and name it in the fixture.
import fs from 'node:fs';
import path from 'node:path';
import type { Page, Response } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { type CaptureFixture, fitsShape } from '../src/capture/captureFixture.js';
import type { Variants } from '../src/index.js';
import { pickSettings, typePrompt, useSimBrowser } from './harness.js';

const DIR = path.join(import.meta.dirname, 'fixtures', 'captured');
const fixtures = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')) as CaptureFixture);

const rig = useSimBrowser({ seed: 'captured-fixtures' });
const email = 'fixtures@example.com';

afterEach(() => {
  rig.sim.scenario.resetVariants();
});

interface Vocabulary {
  tags: Set<string>;
  classes: Set<string>;
  roles: Set<string>;
  ligatures: Set<string>;
}

/** Every tag, class, role and ligature the page shows now, added to `into`. */
async function collect(page: Page, into: Vocabulary): Promise<void> {
  const seen = await page.evaluate(() => {
    const els = Array.from(document.querySelectorAll('*'));
    return {
      tags: els.map((e) => e.tagName.toLowerCase()),
      classes: els.flatMap((e) => Array.from(e.classList)),
      roles: els.map((e) => e.getAttribute('role') ?? ''),
      ligatures: Array.from(document.querySelectorAll('mat-icon')).map((e) => (e.textContent ?? '').trim()),
    };
  });
  for (const key of ['tags', 'classes', 'roles', 'ligatures'] as const) for (const v of seen[key]) into[key].add(v);
}

/** The batchexecute payloads the page received, by rpc id (the envelope read leniently, as the page does). */
function recordReplies(page: Page): Map<string, unknown[]> {
  const byRpc = new Map<string, unknown[]>();
  page.on('response', (response: Response) => {
    if (!response.url().includes('/data/batchexecute')) return;
    void response.text().then(
      (body) => {
        for (const line of body.split('\n')) {
          if (!line.startsWith('[')) continue;
          for (const item of JSON.parse(line) as unknown[][]) {
            if (item[0] !== 'wrb.fr' || typeof item[1] !== 'string' || typeof item[2] !== 'string') continue;
            byRpc.set(item[1], [...(byRpc.get(item[1]) ?? []), JSON.parse(item[2]) as unknown]);
          }
        }
      },
      () => undefined,
    );
  });
  return byRpc;
}

const PANE = '.cdk-overlay-pane:has([role=radiogroup])';

/** Opens the settings pane and the model menu in one mode, collecting what each shows. */
async function paneAndMenu(page: Page, vocabulary: Vocabulary): Promise<void> {
  await page.click('.settings-trigger-button');
  await page.locator(PANE).waitFor();
  await collect(page, vocabulary);
  await page.click(`${PANE} button:has(mat-icon:text-is("arrow_drop_down"))`);
  await page.locator('.cdk-overlay-pane [role=menu]').waitFor();
  await collect(page, vocabulary);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.locator(PANE).waitFor({ state: 'detached' });
}

/**
 * The canary's walk, with the simulator's own page helpers: the gallery and a new project (its
 * create and rename replies), the settings pane and model menu in video and image mode, the
 * Frames picker, the `@` picker, the + menu, a typed prompt. Nothing is submitted.
 */
async function walk(page: Page, vocabulary: Vocabulary): Promise<void> {
  await page.goto('https://flow.google.com/');
  await page.locator('button:has(mat-icon:text-is("add"))').first().waitFor();
  await collect(page, vocabulary);
  await page.locator('button:has(mat-icon:text-is("add"))').first().click();
  await page.waitForURL(/\/project\//);
  await page.locator('.settings-trigger-button').waitFor();
  await page.locator('button.project-title').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('fixture walk');
  await page.keyboard.press('Enter');
  await page.locator('button.project-title').filter({ hasText: 'fixture walk' }).waitFor();
  await collect(page, vocabulary);
  await paneAndMenu(page, vocabulary);
  await pickSettings(page, [{ icon: 'image' }]);
  await paneAndMenu(page, vocabulary);
  await pickSettings(page, [{ icon: 'videocam' }, { icon: 'crop_free' }]);
  await page.locator('flow-prompt-box button.empty-chip').first().click();
  await page.locator('flow-add-menu-popover-content input[type=text]').waitFor();
  await collect(page, vocabulary);
  await page.keyboard.press('Escape');
  await page.click('flow-prompt-box [contenteditable=true]');
  await page.keyboard.type('@');
  await page.locator('.cdk-overlay-pane mat-list-item[role=tab]').first().waitFor();
  await collect(page, vocabulary);
  await page.keyboard.press('Escape');
  await page.click('xpath=//button[.//mat-icon[normalize-space()="add"]][not(ancestor::flow-prompt-box)]');
  await page.locator('.cdk-overlay-pane [role=menuitem]').first().waitFor();
  await collect(page, vocabulary);
  await page.keyboard.press('Escape');
  await typePrompt(page, 'a fixture walk');
  await collect(page, vocabulary);
}

/** What the simulator, under the fixture's variants, does not do that the capture says the real app does. */
async function contractProblems(fixture: CaptureFixture): Promise<string[]> {
  rig.sim.scenario.createAccount({ email, credits: 1_000, uploadTermsAccepted: true });
  rig.sim.scenario.setVariants(fixture.variants as Partial<Variants>);
  const { page, ctx } = await rig.signedInPage(email);
  const replies = recordReplies(page);
  const vocabulary: Vocabulary = { tags: new Set(), classes: new Set(), roles: new Set(), ligatures: new Set() };
  const problems: string[] = [];
  try {
    await walk(page, vocabulary);
    for (const anchor of fixture.anchors) {
      const lacks = (kind: keyof Vocabulary, names: readonly string[]): void => {
        for (const name of names)
          if (!vocabulary[kind].has(name)) problems.push(`${anchor.probe}: ${anchor.anchor}: no ${kind} ${name}`);
      };
      lacks('tags', anchor.tags);
      lacks('classes', anchor.classes);
      lacks('roles', anchor.roles);
      lacks('ligatures', anchor.ligatures);
    }
    for (const [rpc, shapes] of Object.entries(fixture.replies)) {
      await expect
        .poll(() => replies.get(rpc)?.length ?? 0, { message: `the walk makes the page send no ${rpc}: add a step` })
        .toBeGreaterThan(0);
      const unfit = (replies.get(rpc) ?? []).filter((payload) => !shapes.some((shape) => fitsShape(payload, shape)));
      if (unfit.length > 0) problems.push(`${rpc}: ${unfit.length} replies fit no captured shape`);
    }
  } finally {
    await ctx.close();
  }
  return problems;
}

describe.each(fixtures.map((f) => [f.name, f] as const))('captured fixture %s', (_, fixture) => {
  it('the simulator shows every captured anchor and sends replies that fit every captured shape', async () => {
    expect(await contractProblems(fixture)).toEqual([]);
  });
});

describe('the contract', () => {
  it('fails for a capture the simulator does not match: a renamed ligature, a reshaped reply', async () => {
    const [base] = fixtures;
    expect(base).toBeDefined();
    const changed: CaptureFixture = {
      ...base!,
      anchors: [
        { probe: 'submit.button', anchor: 'button', tags: ['button'], classes: [], roles: [], ligatures: ['send'] },
      ],
      replies: { UpteDb: [{ object: { results: { array: 1, items: ['string'] } } }] },
    };
    expect(await contractProblems(changed)).toEqual([
      'submit.button: button: no ligatures send',
      expect.stringMatching(/^UpteDb: \d+ replies fit no captured shape$/),
    ]);
  });
});
