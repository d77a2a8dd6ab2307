// Contract of the agent-only composer (flow-wire §4 "Agent-only composer (#799)", flow-captures.md
// §2): what the page shows, driven by hand with plain playwright-core, no gflow driver. The
// server channel behind it is the simulator's invention (README "The agent-only composer").
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useSimBrowser } from './harness.js';

const rig = useSimBrowser({ seed: 'agent-only-contract' });
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

afterEach(() => {
  rig.sim.scenario.resetVariants();
  rig.sim.scenario.clearFailures();
});

let accounts = 0;
async function agentOnlyPage() {
  const email = `agent-only-${(accounts += 1)}@example.com`;
  rig.sim.scenario.createAccount({ email, cohort: 'agent_only', credits: 500 });
  const project = rig.sim.scenario.createProject(email);
  const opened = await rig.signedInPage(email);
  await opened.page.goto(`https://flow.google.com/project/${project.id}`);
  await opened.page.locator('flow-creative-agent-prompt-box div.ProseMirror').waitFor();
  return { email, project, ...opened };
}

async function send(page: Page, text: string): Promise<void> {
  await page.click('flow-creative-agent-prompt-box div.ProseMirror');
  await page.keyboard.insertText(text);
  await page.click('flow-generate-icon-button button');
}

describe('flow-wire §4: the agent-only composer', () => {
  it('settings: four toggle groups in order, two model pickers, Always/Never radios; Save keeps, arrow_back does not', async () => {
    const { page, ctx, project } = await agentOnlyPage();
    const view = page.locator('flow-agent-panel flow-settings-view');
    const open = async () => {
      await page.click('flow-creative-agent-prompt-box button:has(mat-icon:text-is("tune"))');
      await view.waitFor();
    };
    await open();
    const groups = view.locator('mat-button-toggle-group');
    expect(await groups.count()).toBe(4);
    expect(await groups.nth(0).locator('mat-button-toggle').allTextContents()).toEqual([
      '16:9',
      '4:3',
      '1:1',
      '3:4',
      '9:16',
    ]);
    expect(await groups.nth(1).locator('mat-button-toggle').count()).toBe(4);
    expect(await groups.nth(2).locator('mat-button-toggle').allTextContents()).toEqual(['16:9', '9:16']);
    expect(await view.locator('button.image-model-picker-button').count()).toBe(1);
    expect(await view.locator('button.video-model-picker-button').count()).toBe(1);
    expect(await view.locator('mat-radio-button').count()).toBe(2);
    await groups.nth(0).locator('mat-button-toggle button', { hasText: '9:16' }).click();
    await view.locator('button:has(mat-icon:text-is("arrow_back"))').click();
    await view.waitFor({ state: 'detached' });
    expect(rig.sim.scenario.agentSettingsOf(project.id).imageAspect).toBe('16:9');
    await open();
    await groups.nth(1).locator('mat-button-toggle button', { hasText: 'x3' }).click();
    await view.locator('button.video-model-picker-button').click();
    await page.locator('[role="menu"] [role="menuitem"]', { hasText: 'Veo 3.1 - Quality' }).click();
    await view.locator('mat-radio-button').nth(1).locator('input').check();
    await view.locator('button.settings-save-button').click();
    await view.waitFor({ state: 'detached' });
    expect(rig.sim.scenario.agentSettingsOf(project.id)).toMatchObject({
      imageCount: 3,
      videoModel: 'Veo 3.1 - Quality',
      confirm: 'never',
    });
    await page.reload();
    await open();
    expect(await groups.nth(1).locator('mat-button-toggle.mat-button-toggle-checked').textContent()).toBe('x3');
    await ctx.close();
  });

  it('a video turn: the credit gate (option rows, not buttons), a pending tile, then a tile without a media id; no ogiZ0b', async () => {
    const { page, ctx } = await agentOnlyPage();
    rig.sim.received.clear();
    await send(page, 'Make me a video of a harbour at night in a 16:9 aspect ratio.');
    const gate = page.locator('flow-permission-message');
    await gate.waitFor();
    expect(await page.locator('flow-stop-icon-button button.stop-button').count()).toBe(1);
    expect(await gate.locator('p').textContent()).toMatch(/1 video.*Veo 3\.1 - Lite.*10 credits/);
    const rows = gate.locator('div[role="radio"].option-row');
    expect(await rows.locator('mat-icon').allTextContents()).toEqual(['check', 'check', 'close']);
    expect(await gate.locator('button').count()).toBe(0);
    await rows.first().click();
    await page.locator('flow-permission-message.read-only').waitFor();
    await page.locator('flow-pending-tile').waitFor();
    const tile = page.locator('flow-video-tile').first();
    await tile.waitFor({ timeout: 60_000 });
    expect(await tile.getAttribute('data-media-id')).toBeNull();
    expect(await tile.locator('img').getAttribute('data-media-id')).toBeNull();
    const picture = (await tile.locator('img').getAttribute('src')) ?? '';
    expect(picture).toMatch(/^https:\/\/flow-content\.google\/image\//);
    const poster = (await page.locator('flow-a2ui-video-option img').getAttribute('src')) ?? '';
    expect(UUID.exec(poster)?.[0]).toBe(UUID.exec(picture)?.[0]);
    await page.locator('flow-generate-icon-button button').waitFor();
    expect(rig.sim.received.calls('ogiZ0b')).toHaveLength(0);
    expect(rig.sim.received.calls('agent.run')[0]?.charged).toBe(10);
    await ctx.close();
  });

  it('agentTileSrc=asb: an image tile shows an opaque /asb/ picture that redirects to the CDN', async () => {
    rig.sim.scenario.setVariants({ agentTileSrc: 'asb' });
    const { page, ctx } = await agentOnlyPage();
    await send(page, 'Make me a picture of a fern in a 1:1 aspect ratio.');
    const img = page.locator('flow-image-tile img').first();
    await img.waitFor({ timeout: 60_000 });
    const src = (await img.getAttribute('src')) ?? '';
    expect(src).toMatch(/^\/asb\//);
    const final = await page.evaluate(async (u) => (await fetch(u)).url, src);
    expect(final).toMatch(/^https:\/\/flow-content\.google\/image\//);
    await ctx.close();
  });

  it('the failure switches: a quote for one more, a quote without a count', async () => {
    const { page, ctx, email } = await agentOnlyPage();
    rig.sim.scenario.setFailure(email, 'agent_quote_more', { times: 1 });
    await send(page, 'Make me a video of a kite in a 9:16 aspect ratio.');
    await page.locator('flow-permission-message').waitFor();
    expect(await page.locator('flow-permission-message p').textContent()).toMatch(/^Generate 2 video/);
    await page.locator('flow-permission-message div.option-row:has(mat-icon:text-is("close"))').click();
    await page.locator('flow-generate-icon-button button').waitFor();
    expect(rig.sim.received.calls('agent.reject').length).toBeGreaterThan(0);
    rig.sim.scenario.setFailure(email, 'agent_unreadable_count', { times: 1 });
    await send(page, 'Make me a video of a cat in a 9:16 aspect ratio.');
    await page.locator('flow-permission-message:not(.read-only)').waitFor();
    const text = (await page.locator('flow-permission-message:not(.read-only) p').textContent()) ?? '';
    expect(text.match(/\d+/g)).toEqual(['10']);
    await ctx.close();
  });
});
