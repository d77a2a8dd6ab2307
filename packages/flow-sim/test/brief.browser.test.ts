// The brief panel [U: the simulator's own shapes, README "The brief panel"], driven with plain
// playwright-core like a person: every control round-trips through `simBrief` and the server's
// state (scenario.briefOf), in both editor layouts, on both variants, and the lossy switch.
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { makePng } from '../src/index.js';
import { useSimBrowser } from './harness.js';

const rig = useSimBrowser({ seed: 'brief-panel' });
const PANEL = 'aside.instructions-panel';

afterEach(() => {
  rig.sim.scenario.resetVariants();
  rig.sim.scenario.clearFailures();
});

async function open(page: Page, projectId: string): Promise<void> {
  await page.goto(`https://flow.google.com/project/${projectId}`);
  await page.locator(PANEL).waitFor();
}

const settled = (page: Page) => page.locator(`${PANEL}[aria-busy=true]`).waitFor({ state: 'detached' });
const card = (page: Page, title: string) =>
  page.locator('flow-instruction-card').filter({ has: page.locator('.instruction-card-title', { hasText: title }) });
const button = (page: Page, scope: string, glyph: string) =>
  page.locator(`${scope} button`).filter({ has: page.locator(`mat-icon:text-is("${glyph}")`) });

async function account(email: string, cohort: 'classic' | 'agent_only' = 'classic') {
  rig.sim.scenario.createAccount({ email, cohort, uploadTermsAccepted: true });
  const project = rig.sim.scenario.createProject(email, { title: 'Brief' });
  const { page, ctx } = await rig.signedInPage(email);
  return { page, ctx, projectId: project.id };
}

describe('the brief panel', () => {
  it('is rendered empty, adds a card with an image, a character and an upload, and saves through simBrief', async () => {
    const { page, ctx, projectId } = await account('brief-add@example.com');
    const image = rig.sim.scenario.addUpload(
      'brief-add@example.com',
      projectId,
      'lighthouse.png',
      makePng(64, 48, 'l'),
    );
    const mira = rig.sim.scenario.addCharacter(projectId, { displayName: 'Mira' });
    await open(page, projectId);
    expect(await page.locator('.instructions-empty').count()).toBe(1);
    expect(await page.locator(`${PANEL} [role=switch]`).getAttribute('aria-checked')).toBe('true');

    await button(page, PANEL, 'post_add').click();
    const form = page.locator('flow-instruction-card-editor');
    await form.locator('input[type=text]').fill('Cast');
    await form.locator('textarea').fill('Mira leads, by the lighthouse.');
    await button(page, 'flow-instruction-card-editor', 'add_photo_alternate').click();
    await page
      .locator('[role=menuitem]')
      .filter({ has: page.locator('mat-icon:text-is("image")') })
      .click();
    await page.locator('flow-instruction-reference-picker [role=option]', { hasText: 'lighthouse.png' }).click();
    await button(page, 'flow-instruction-card-editor', 'add_photo_alternate').click();
    await page
      .locator('[role=menuitem]')
      .filter({ has: page.locator('mat-icon:text-is("person")') })
      .click();
    await page.locator('flow-instruction-reference-picker [role=option]', { hasText: 'Mira' }).click();
    const chooser = page.waitForEvent('filechooser');
    await button(page, 'flow-instruction-card-editor', 'add_photo_alternate').click();
    await page
      .locator('[role=menuitem]')
      .filter({ has: page.locator('mat-icon:text-is("upload_file")') })
      .click();
    await (await chooser).setFiles({ name: 'fresh.png', mimeType: 'image/png', buffer: makePng(40, 30, 'f') });
    await form.locator('[data-reference-type=media]').nth(1).waitFor();
    rig.sim.received.clear();
    await button(page, 'flow-instruction-card-editor', 'check').click();
    await settled(page);

    const saved = rig.sim.scenario.briefOf(projectId);
    expect(saved.cards).toHaveLength(1);
    const uploadId = saved.cards[0]!.imageMediaIds[1]!;
    expect(saved.cards[0]).toMatchObject({
      title: 'Cast',
      text: 'Mira leads, by the lighthouse.',
      enabled: true,
      imageMediaIds: [image.mediaId, expect.stringMatching(/^[0-9a-f-]{36}$/)],
      characterIds: [mira.entityId],
    });
    expect(rig.sim.received.calls('simBrief')).toHaveLength(1);
    const shown = card(page, 'Cast');
    expect(await shown.getAttribute('data-card-id')).toBe(saved.cards[0]!.id);
    expect(await shown.getAttribute('data-image-media-ids')).toBe(`${image.mediaId},${uploadId}`);
    expect(await shown.getAttribute('data-character-ids')).toBe(mira.entityId);
    await ctx.close();
  });

  it('toggles a card and the master switch, edits one and removes one after the confirm dialog', async () => {
    const { page, ctx, projectId } = await account('brief-edit@example.com');
    const a = rig.sim.scenario.addInstructionCard(projectId, { title: 'Style', text: 'noir' });
    rig.sim.scenario.addInstruction(projectId, 'Golden hour light.');
    await open(page, projectId);
    expect(await card(page, 'Instruction 2').locator('.instruction-card-text').textContent()).toBe(
      'Golden hour light.',
    );

    await card(page, 'Style').locator('[role=switch]').click();
    await settled(page);
    expect(rig.sim.scenario.briefOf(projectId).cards[0]?.enabled).toBe(false);
    expect(await card(page, 'Style').getAttribute('data-enabled')).toBe('false');

    await page.locator(`${PANEL} .instructions-header [role=switch]`).click();
    await settled(page);
    expect(rig.sim.scenario.briefOf(projectId).enabled).toBe(false);

    await button(page, 'flow-instruction-card:has(.instruction-card-title:text-is("Style"))', 'edit').click();
    await page.locator('flow-instruction-card-editor textarea').fill('noir, hard shadows');
    await button(page, 'flow-instruction-card-editor', 'check').click();
    await settled(page);
    expect(rig.sim.scenario.briefOf(projectId).cards[0]).toMatchObject({ id: a.id, text: 'noir, hard shadows' });

    await button(page, 'flow-instruction-card:has(.instruction-card-title:text-is("Instruction 2"))', 'delete').click();
    const dialog = page.locator('[role=alertdialog]');
    await dialog.waitFor();
    expect(rig.sim.scenario.briefOf(projectId).cards).toHaveLength(2);
    await button(page, '[role=alertdialog]', 'delete').click();
    await settled(page);
    expect(rig.sim.scenario.briefOf(projectId).cards.map((c) => c.title)).toEqual(['Style']);
    await page.reload();
    await page.locator(PANEL).waitFor();
    expect(await page.locator('flow-instruction-card').count()).toBe(1);
    expect(await page.locator(`${PANEL} .instructions-header [role=switch]`).getAttribute('aria-checked')).toBe(
      'false',
    );
    await ctx.close();
  });

  it('briefSave=explicit: changes wait for the Save button; briefRemoveConfirm=none removes at once', async () => {
    rig.sim.scenario.setVariants({ briefSave: 'explicit', briefRemoveConfirm: 'none' });
    const { page, ctx, projectId } = await account('brief-explicit@example.com');
    rig.sim.scenario.addInstructionCard(projectId, { title: 'Old', text: 'gone soon' });
    rig.sim.scenario.addInstructionCard(projectId, { title: 'Kept', text: 'stays' });
    await open(page, projectId);
    rig.sim.received.clear();
    await button(page, 'flow-instruction-card:has(.instruction-card-title:text-is("Old"))', 'delete').click();
    await card(page, 'Kept').locator('[role=switch]').click();
    expect(await page.locator('[role=alertdialog]').count()).toBe(0);
    expect(rig.sim.received.calls('simBrief')).toHaveLength(0);
    expect(rig.sim.scenario.briefOf(projectId).cards).toHaveLength(2);
    await button(page, PANEL, 'save').click();
    await settled(page);
    expect(rig.sim.received.calls('simBrief')).toHaveLength(1);
    expect(rig.sim.scenario.briefOf(projectId).cards.map((c) => [c.title, c.enabled])).toEqual([['Kept', false]]);
    expect(await button(page, PANEL, 'save').isDisabled()).toBe(true);
    await ctx.close();
  });

  it('brief_save_lossy: the server keeps the old brief and stores a new card without its text', async () => {
    const email = 'brief-lossy@example.com';
    const { page, ctx, projectId } = await account(email);
    rig.sim.scenario.addInstructionCard(projectId, { title: 'Style', text: 'noir' });
    await open(page, projectId);
    rig.sim.scenario.setFailure(email, 'brief_save_lossy', { times: 2 });
    await card(page, 'Style').locator('[role=switch]').click();
    await settled(page);
    expect(await card(page, 'Style').getAttribute('data-enabled')).toBe('true');
    await button(page, PANEL, 'post_add').click();
    await page.locator('flow-instruction-card-editor input[type=text]').fill('Light');
    await page.locator('flow-instruction-card-editor textarea').fill('golden hour');
    await button(page, 'flow-instruction-card-editor', 'check').click();
    await settled(page);
    expect(rig.sim.scenario.briefOf(projectId).cards.map((c) => [c.title, c.text, c.enabled])).toEqual([
      ['Style', 'noir', true],
      ['Light', '', true],
    ]);
    expect(await card(page, 'Light').locator('.instruction-card-text').textContent()).toBe('');
    await ctx.close();
  });

  it('agent-only: the same panel beside the agent composer', async () => {
    const { page, ctx, projectId } = await account('brief-agent@example.com', 'agent_only');
    rig.sim.scenario.addInstruction(projectId, 'Keep it noir.');
    await open(page, projectId);
    await page.locator('flow-creative-agent-prompt-box').waitFor();
    await card(page, 'Instruction 1').locator('[role=switch]').click();
    await settled(page);
    expect(rig.sim.scenario.briefOf(projectId).cards[0]?.enabled).toBe(false);
    await ctx.close();
  });

  it('a reference that is not the account’s is refused (3) and the panel shows the stored brief', async () => {
    const { page, ctx, projectId } = await account('brief-refuse@example.com');
    await open(page, projectId);
    const reply = await page.evaluate(async (pid) => {
      const wiz = (window as unknown as { WIZ_global_data: { SNlM0e: string } }).WIZ_global_data;
      const inner = [pid, [true, [[null, 'X', 'y', true, ['00000000-0000-4000-8000-000000000000'], []]]]];
      const body = new URLSearchParams({
        'f.req': JSON.stringify([[['simBrief', JSON.stringify(inner), null, 'generic']]]),
        at: wiz.SNlM0e,
      });
      const res = await fetch('/_/AiSandboxAngularFrontend/data/batchexecute?rpcids=simBrief', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', 'x-same-domain': '1' },
        body: `${body}&`,
      });
      return res.text();
    }, projectId);
    expect(reply).toContain('PUBLIC_ERROR_REFERENCE_NOT_FOUND');
    expect(rig.sim.scenario.briefOf(projectId).cards).toEqual([]);
    await ctx.close();
  });
});
