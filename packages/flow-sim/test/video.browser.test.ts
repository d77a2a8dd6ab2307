import { describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import {
  captureBodies,
  foreignHosts,
  openProject,
  pickSettings,
  submit,
  typePrompt,
  uploadPng,
  useSimBrowser,
} from './harness.js';

const rig = useSimBrowser({ seed: 'video-contract' });

/** Statuses seen in jwpduf replies, in order (decoded from the page's own responses). */
function watchStatuses(page: Page): number[] {
  const seen: number[] = [];
  page.on('response', (r: Response) => {
    if (!r.url().includes('rpcids=jwpduf')) return;
    r.text().then(
      (t) => {
        // The record's marker slot is null by default (flow-captures.md §5), "CAE"/"CAF" in its variants.
        for (const m of t.matchAll(
          /(?:null|\\"CA[EF]\\"),null,\[\[\d+,\d+\],\\".*?\\",(?:null,){4}\[.*?\],null,\[(\d+)\]/g,
        ))
          seen.push(Number(m[1]));
      },
      () => undefined,
    );
  });
  return seen;
}

async function downloadMp4(page: Page): Promise<Buffer> {
  // The download menu lives in the tile's detail view (flow-captures.md §8).
  await page.locator('flow-video-tile').first().click();
  await page.locator('flow-asset-detail-view button:has(mat-icon:text-is("download"))').click();
  const download = page.waitForEvent('download');
  await page.locator('[role=menu] [role=menuitem]').filter({ hasText: '720p' }).click();
  const { readFileSync } = await import('node:fs');
  return readFileSync(await (await download).path());
}

async function setup(email: string, latency?: number) {
  rig.sim.received.clear();
  rig.sim.scenario.createAccount({ email });
  const project = rig.sim.scenario.createProject(email);
  const opened = await rig.signedInPage(email);
  if (latency !== undefined) rig.sim.scenario.setLatency(latency);
  return { project, ...opened };
}

describe('video generation, driven like a human', () => {
  it('t2v: YhhmEf with the t2v key, jwpduf 6 → 2 → 3, as29s URL, real MP4', async () => {
    const { project, page, ctx, hosts } = await setup('t2v@example.com', 0.04);
    const statuses = watchStatuses(page);
    const bodies = captureBodies(page);
    await openProject(page, project.id);
    await pickSettings(page, [{ icon: 'videocam' }, { icon: 'crop_9_16' }, { token: '8' }]);
    await typePrompt(page, 'waves at night');
    await submit(page);
    await page.locator('flow-video-tile img[data-media-id]').waitFor({ timeout: 15_000 });
    const submitBody = bodies.find((b) => b.rpc === 'YhhmEf');
    expect(submitBody?.url).toContain('rpcids=YhhmEf');
    expect(submitBody?.body).toContain('veo_3_1_t2v_lite');
    const inner = JSON.parse(rig.sim.received.calls('YhhmEf')[0]?.inner ?? 'null');
    expect(inner[0][0][1]).toBe('veo_3_1_t2v_lite');
    expect(inner[0][0][2]).toBe(1);
    expect(inner[1][1]).toBe(22);
    expect(inner[1][5]).toBe(project.id);
    // The page reports the job's states in the captured order, 6 → 2 → 3, never backwards; how
    // many of the first ones a poll sees depends on when it comes (a loaded machine may miss 6).
    const order = [6, 2, 3];
    expect(statuses.every((s) => order.includes(s))).toBe(true);
    expect(statuses.map((s) => order.indexOf(s))).toEqual([...statuses.map((s) => order.indexOf(s))].sort());
    expect(statuses.some((s) => s !== 3)).toBe(true);
    expect(statuses.at(-1)).toBe(3);
    expect(rig.sim.received.calls('as29s').length).toBeGreaterThan(0);
    const mp4 = await downloadMp4(page);
    expect(mp4.toString('ascii', 4, 8)).toBe('ftyp');
    expect(foreignHosts(hosts)).toEqual([]);
    rig.sim.scenario.setLatency('fast');
    await ctx.close();
  });

  it('i2v with start + end frames: uploads, Frames chips, library picker, nprQif without rpcids and both ids', async () => {
    const { project, page, ctx } = await setup('i2v@example.com');
    await openProject(page, project.id);
    const startId = await uploadPng(page, 'start-0a1b2c3d.png', 64, 36);
    const endId = await uploadPng(page, 'end-0a1b2c3d.png', 64, 36);
    // per-load snapshot: reload so the picker lists the fresh uploads
    await openProject(page, project.id);
    await pickSettings(page, [{ icon: 'videocam' }, { icon: 'crop_free' }]);
    for (const [slot, name] of [
      [0, 'start-0a1b2c3d.png'],
      [0, 'end-0a1b2c3d.png'],
    ] as const) {
      await page.locator('flow-prompt-box button.empty-chip').nth(slot).click();
      const popover = page.locator('flow-add-menu-popover-content');
      await popover.locator('input[type=text]').fill(name.slice(0, 5));
      await popover.locator('button.asset-item[role=option]', { hasText: name }).click();
      await popover.waitFor({ state: 'detached' });
    }
    expect(await page.locator('flow-prompt-box button.chip-container:has(img)').count()).toBe(2);
    await typePrompt(page, 'morph between the frames');
    await submit(page);
    await page.locator('flow-video-tile img[data-media-id]').waitFor();
    const call = rig.sim.received.calls('nprQif')[0];
    expect(call?.rpcidsParam).toBe('');
    expect(call?.inner).toContain('veo_3_1_interpolation_lite');
    expect(call?.inner).toContain(startId);
    expect(call?.inner).toContain(endId);
    expect(rig.sim.received.calls('maseQ')).toHaveLength(2);
    await ctx.close();
  });

  it('i2v with a start frame only goes out on eb1hJf; an empty Start chip submits t2v', async () => {
    const { project, page, ctx } = await setup('i2v-start@example.com');
    rig.sim.scenario.updateAccount('i2v-start@example.com', { pickerCommit: 'confirm' });
    const { makePng } = await import('../src/index.js');
    const { mediaId } = rig.sim.scenario.addUpload(
      'i2v-start@example.com',
      project.id,
      'only-start.png',
      makePng(40, 40, 's'),
    );
    await openProject(page, project.id);
    await pickSettings(page, [{ icon: 'videocam' }, { icon: 'crop_free' }]);
    await typePrompt(page, 'no frames at all');
    await submit(page);
    await page.locator('flow-video-tile').waitFor();
    expect(rig.sim.received.calls('YhhmEf')[0]?.inner).toContain('veo_3_1_t2v_lite');
    await page.locator('flow-prompt-box button.empty-chip').first().click();
    await page
      .locator('flow-add-menu-popover-content button.asset-item[role=option]', { hasText: 'only-start.png' })
      .click();
    await page.locator('button.detail-add-to-prompt-btn').click();
    await page.locator('flow-prompt-box button.chip-container:has(img)').waitFor();
    await submit(page);
    await page.locator('flow-video-tile').nth(1).waitFor();
    const call = rig.sim.received.calls('eb1hJf')[0];
    expect(call?.inner).toContain('veo_3_1_i2v_lite');
    expect(call?.inner).not.toContain('_t2v_');
    expect(call?.inner).toContain(mediaId);
    await ctx.close();
  });

  it('r2v with @ references goes out on MZZa6b with every id; below 8 s it degrades to a t2v key', async () => {
    const email = 'r2v@example.com';
    const { project, page, ctx } = await setup(email);
    const { makePng } = await import('../src/index.js');
    const a = rig.sim.scenario.addUpload(email, project.id, 'dog-ref.png', makePng(30, 30, 'd'));
    const c = rig.sim.scenario.addCharacter(project.id, { displayName: 'Captain Ro' });
    await openProject(page, project.id);
    await pickSettings(page, [{ icon: 'videocam' }, { icon: 'chrome_extension' }, { token: '8' }]);
    await page.click('flow-prompt-box [contenteditable=true]');
    for (const [name, ligature] of [
      ['dog-ref', 'image'],
      ['Captain', 'person'],
    ] as const) {
      const searched = page.waitForResponse(
        (r) => r.url().includes('rpcids=UpteDb') && decodeURIComponent(r.request().postData() ?? '').includes(name),
      );
      await page.keyboard.type(`@${name}`);
      await searched;
      await page
        .locator('.cdk-overlay-pane button[role=option].asset-item', { hasText: name })
        .filter({ has: page.locator(`mat-icon:text-is("${ligature}")`) })
        .waitFor();
      // characters and media share one unranked list: move to the option with the wanted kind
      const wanted = page
        .locator('.cdk-overlay-pane button[role=option].asset-item-active', { hasText: name })
        .filter({ has: page.locator(`mat-icon:text-is("${ligature}")`) });
      for (let i = 0; i < 5 && !(await wanted.isVisible()); i += 1) await page.keyboard.press('ArrowDown');
      await wanted.waitFor();
      await page.keyboard.press('Enter');
      await page.keyboard.insertText(' and ');
    }
    // A media chip carries no entity id, a character chip its entity id (flow-captures.md §1).
    const chips = await page
      .locator('.mention-chip')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-reference-type'), e.getAttribute('data-entity-id')]));
    expect(chips).toEqual([
      ['media', null],
      ['entity', c.entityId],
    ]);
    await page.keyboard.insertText('walk on a beach');
    await submit(page);
    await page.locator('flow-video-tile').waitFor();
    const call = rig.sim.received.calls('MZZa6b')[0];
    expect(call?.inner).toContain('veo_3_1_r2v_lite');
    expect(call?.inner).toContain(a.mediaId);
    expect(call?.inner).toContain(c.entityId);
    await pickSettings(page, [{ token: '4' }]);
    await submit(page);
    await page.locator('flow-video-tile').nth(1).waitFor();
    const degraded = rig.sim.received.submits().at(-1);
    expect(degraded?.inner).toContain('veo_3_1_t2v_lite_4s');
    expect(degraded?.inner).not.toContain('_r2v_');
    await ctx.close();
  });
});
