import { describe, expect, it } from 'vitest';
import { readImageSize } from '../src/index.js';
import {
  captureBodies,
  foreignHosts,
  openProject,
  pickModel,
  pickSettings,
  submit,
  typePrompt,
  useSimBrowser,
} from './harness.js';

const rig = useSimBrowser({ seed: 'image-contract' });

describe('image generation, driven like a human', () => {
  it('picks image mode and 3:4, submits, sees the tile and downloads a true 3:4 JPEG', async () => {
    const email = 'img@example.com';
    rig.sim.scenario.createAccount({ email });
    const project = rig.sim.scenario.createProject(email, { title: 'Images' });
    const { ctx, page, hosts } = await rig.signedInPage(email);
    const bodies = captureBodies(page);
    await openProject(page, project.id);
    await pickSettings(page, [{ icon: 'image' }, { icon: 'crop_portrait' }]);
    expect(await page.locator('.settings-trigger-button mat-icon').first().textContent()).toBe('crop_portrait');
    await typePrompt(page, 'a lighthouse at dusk');
    await submit(page);
    const tile = page.locator('flow-image-tile img[data-media-id]').first();
    await tile.waitFor();
    const mediaId = await tile.getAttribute('data-media-id');
    // the wire the page sent
    const sent = bodies.filter((b) => b.rpc === 'ogiZ0b');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toContain('rpcids=ogiZ0b');
    const inner = JSON.parse(JSON.parse(sent[0]?.body ?? '')[0][0][1]);
    // Nano Banana 2.1 is the menu's default image model (flow-captures.md §7).
    expect(inner[0][1]).toBe('BELUGA');
    expect(inner[0][2]).toBe(5);
    expect(JSON.stringify(inner[0][0])).toContain('a lighthouse at dusk');
    expect(inner[1][5]).toBe(project.id);
    expect(rig.sim.received.calls('ogiZ0b')[0]?.inner).toBe(JSON.stringify(inner));
    // download through the detail view's menu (1K = original; flow-captures.md §8)
    await page.locator('flow-image-tile').first().click();
    await page.locator('flow-asset-detail-view button:has(mat-icon:text-is("download"))').click();
    const download = page.waitForEvent('download');
    await page.locator('[role=menu] [role=menuitem]').filter({ hasText: '1K' }).click();
    const file = await (await download).createReadStream();
    const chunks: Buffer[] = [];
    for await (const c of file) chunks.push(c as Buffer);
    const info = readImageSize(Buffer.concat(chunks));
    expect(info?.format).toBe('jpeg');
    expect((info?.width ?? 0) * 4).toBe((info?.height ?? 0) * 3);
    expect((await download).suggestedFilename()).toBe(`${mediaId}.jpg`);
    expect(foreignHosts(hosts)).toEqual([]);
    await ctx.close();
  });

  it('sends the chosen Nano Banana model token and @ reference ids (i2i), and upscales 2K via SPrCad', async () => {
    rig.sim.received.clear();
    const email = 'img2@example.com';
    rig.sim.scenario.createAccount({ email });
    const project = rig.sim.scenario.createProject(email);
    const { ctx, page } = await rig.signedInPage(email);
    const { mediaId: refId } = rig.sim.scenario.addUpload(
      email,
      project.id,
      'kitten-1a2b3c4d.png',
      (await import('../src/index.js')).makePng(80, 80, 'k'),
    );
    await openProject(page, project.id);
    await pickSettings(page, [{ icon: 'image' }, { icon: 'crop_16_9' }]);
    await pickModel(page, 'Nano Banana Pro');
    await page.click('flow-prompt-box [contenteditable=true]');
    await page.keyboard.type('@kitten');
    await page
      .locator('.cdk-overlay-pane button[role=option].asset-item', { hasText: 'kitten-1a2b3c4d.png' })
      .waitFor();
    await page.keyboard.press('Enter');
    // flow-captures.md §1: a media chip has no entity id; the body still carries the media id.
    expect(await page.locator('.mention-chip').getAttribute('data-entity-id')).toBeNull();
    expect(await page.locator('.mention-chip').getAttribute('data-reference-type')).toBe('media');
    await page.keyboard.insertText(' wearing a hat');
    await submit(page);
    await page.locator('flow-image-tile img[data-media-id]').first().waitFor();
    const inner = JSON.parse(rig.sim.received.calls('ogiZ0b')[0]?.inner ?? 'null');
    expect(inner[0][1]).toBe('GEM_PIX_2');
    expect(JSON.stringify(inner[0][4])).toContain(refId);
    const mediaId = await page.locator('flow-image-tile img').first().getAttribute('data-media-id');
    await page.locator('flow-image-tile').first().click();
    await page.locator('flow-asset-detail-view button:has(mat-icon:text-is("download"))').click();
    expect(await page.locator('[role=menu] [role=menuitem]').filter({ hasText: '4K' }).getAttribute('disabled')).toBe(
      'true',
    );
    const download = page.waitForEvent('download');
    await page.locator('[role=menu] [role=menuitem]').filter({ hasText: '2K' }).click();
    const path = await (await download).path();
    const { readFileSync } = await import('node:fs');
    expect(readImageSize(readFileSync(path))).toEqual({ format: 'jpeg', width: 2752, height: 1536 });
    expect(rig.sim.received.calls('SPrCad')[0]?.inner).toContain(mediaId ?? 'x');
    await ctx.close();
  });
  it('a saved character: the Characters tab lists only it, Enter binds an entity chip, ogiZ0b carries it as an entity reference', async () => {
    rig.sim.received.clear();
    const email = 'img3@example.com';
    rig.sim.scenario.createAccount({ email });
    const project = rig.sim.scenario.createProject(email);
    const { makePng } = await import('../src/index.js');
    const media = rig.sim.scenario.addUpload(email, project.id, 'Mira', makePng(40, 40, 'm'));
    const character = rig.sim.scenario.addCharacter(project.id, { displayName: 'Mira' });
    const { ctx, page } = await rig.signedInPage(email);
    await openProject(page, project.id);
    await pickSettings(page, [{ icon: 'image' }, { icon: 'crop_16_9' }]);
    await page.click('flow-prompt-box [contenteditable=true]');
    await page.keyboard.type('@Mira');
    const options = page.locator('.cdk-overlay-pane button[role=option].asset-item');
    // one unranked list: the media named exactly like the character, the character and its thumbnail upload
    await expect.poll(async () => (await options.allTextContents()).length).toBe(3);
    await page.locator('mat-list-item[role=tab]').nth(4).click();
    // Its name, then its type word (flow-captures §1: "me.jpgImage").
    await expect
      .poll(async () => (await options.allTextContents()).map((t) => t.replace('person', '').trim()))
      .toEqual(['MiraCharacter']);
    await page.keyboard.press('Enter');
    const chip = page.locator('.mention-chip');
    expect([await chip.getAttribute('data-reference-type'), await chip.getAttribute('data-entity-id')]).toEqual([
      'entity',
      character.entityId,
    ]);
    await page.keyboard.insertText(' on a bicycle');
    await submit(page);
    await page.locator('flow-image-tile img[data-media-id]').first().waitFor();
    const inner = JSON.parse(rig.sim.received.calls('ogiZ0b')[0]?.inner ?? 'null');
    expect(inner[0][4]).toEqual([[null, 1, character.entityId, 'entity']]);
    expect(JSON.stringify(inner)).not.toContain(media.mediaId);
    await ctx.close();
  });

  it('refuses an entity reference that is not a character of the account', async () => {
    const email = 'img4@example.com';
    rig.sim.scenario.createAccount({ email });
    const other = 'img5@example.com';
    rig.sim.scenario.createAccount({ email: other });
    const theirs = rig.sim.scenario.addCharacter(rig.sim.scenario.createProject(other).id, { displayName: 'Theirs' });
    const project = rig.sim.scenario.createProject(email);
    const { ctx, page } = await rig.signedInPage(email);
    await openProject(page, project.id);
    // Forged from the page's own wire client (a string, so the test runner does not rewrite the import).
    const status = await page.evaluate(`(async () => {
      const wire = await import('/_/static/wire.js');
      try {
        await wire.rpc('ogiZ0b', [[wire.promptStruct('x'), 'NARWHAL', 2, 1, [[null, 1, ${JSON.stringify(theirs.entityId)}, 'entity']]], wire.clientContext(${JSON.stringify(project.id)}, 'token'), ['u', 1]]);
        return 'accepted';
      } catch (error) {
        return String(error.code);
      }
    })()`);
    expect(status).toBe('3');
    await ctx.close();
  });
});
