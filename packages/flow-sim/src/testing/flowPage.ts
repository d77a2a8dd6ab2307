// Drives the simulated Flow page the way a person does (selectors of flow-wire §4). For tests that
// need media or settings in place without the driver: the simulator's own contract tests, and the
// driver's tests that prepare a project before the code under test runs.
import type { BrowserContext, Page, Request, Response } from 'playwright-core';
import { makePng } from '../media/png.js';

/** Opens a project editor and waits for the ready anchor. */
export async function openProject(page: Page, projectId: string): Promise<void> {
  await page.goto(`https://flow.google.com/project/${projectId}`);
  await page.locator('.settings-trigger-button').waitFor({ state: 'visible' });
}

function radioByIcon(page: Page, ligature: string) {
  return page
    .locator('.cdk-overlay-pane:has([role=radiogroup]) [role=radio]')
    .filter({ has: page.locator(`mat-icon:text-is("${ligature}")`) });
}

/** Clicks radios (by ligature, or by number token for durations / counts) and reads aria-checked back. */
export async function pickSettings(page: Page, picks: { icon?: string; token?: string }[]): Promise<void> {
  await page.click('.settings-trigger-button');
  for (const pick of picks) {
    const radio =
      pick.icon !== undefined
        ? radioByIcon(page, pick.icon)
        : page
            .locator('.cdk-overlay-pane:has([role=radiogroup]) [role=radio]')
            .filter({ hasText: new RegExp(`(^|\\D)${pick.token ?? ''}(\\D|$)`) })
            .first();
    await radio.click();
    await radio.and(page.locator('[aria-checked=true]')).waitFor();
  }
  await page.keyboard.press('Escape');
  await page.locator('.cdk-overlay-pane:has([role=radiogroup])').waitFor({ state: 'detached' });
}

export async function pickModel(page: Page, label: string): Promise<void> {
  await page.click('.settings-trigger-button');
  await page.click('.cdk-overlay-pane:has([role=radiogroup]) button:has(mat-icon:text-is("arrow_drop_down"))');
  await page.locator('[role=menu] [role=menuitem]').filter({ hasText: label }).first().click();
  await page.locator('.cdk-overlay-pane:has([role=radiogroup]) .model-name').filter({ hasText: label }).waitFor();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.locator('.cdk-overlay-pane:has([role=radiogroup])').waitFor({ state: 'detached' });
}

export async function typePrompt(page: Page, text: string): Promise<void> {
  await page.click('flow-prompt-box [contenteditable=true]');
  await page.keyboard.insertText(text);
}

export async function submit(page: Page): Promise<void> {
  const btn = page.locator('flow-prompt-box button:has(mat-icon:text-is("arrow_forward"))');
  await btn.and(page.locator(':not([disabled])')).waitFor();
  await btn.click();
}

/** Uploads a PNG through the toolbar + menu and the file chooser; accepts the rights dialog if shown. */
export async function uploadPng(page: Page, name: string, width = 64, height = 48): Promise<string> {
  const reply = page.waitForResponse((r) => r.url().includes('rpcids=maseQ'));
  const chooser = page.waitForEvent('filechooser');
  await page.click('xpath=//button[.//mat-icon[normalize-space()="add"]][not(ancestor::flow-prompt-box)]');
  await page
    .locator('.cdk-overlay-pane [role=menuitem]')
    .filter({ has: page.locator('mat-icon:text-is("upload")') })
    .click();
  await (await chooser).setFiles({ name, mimeType: 'image/png', buffer: makePng(width, height, name) });
  const dialog = page.locator('[role=dialog]');
  const sent = page.waitForRequest((r) => r.url().includes('rpcids=maseQ'));
  const first = await Promise.race([
    dialog.waitFor().then(
      () => 'dialog',
      () => 'none',
    ),
    sent.then(
      () => 'sent',
      () => 'none',
    ),
  ]);
  if (first === 'dialog') await dialog.locator('button.flow-button-medium').nth(1).click();
  const text = await (await reply).text();
  const m = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(text);
  if (m === null) throw new Error(`maseQ reply without id: ${text}`);
  return m[0];
}

/** Form-decoded submit bodies the page sent (captured from the browser side). */
export function captureBodies(page: Page): { rpc: string; url: string; body: string }[] {
  const out: { rpc: string; url: string; body: string }[] = [];
  page.on('request', (r: Request) => {
    if (!r.url().includes('/data/batchexecute')) return;
    const form = new URLSearchParams(r.postData() ?? '');
    const fReq = form.get('f.req') ?? '';
    const m = /^\[\[\["([A-Za-z0-9]+)"/.exec(fReq);
    out.push({ rpc: m?.[1] ?? '?', url: r.url(), body: fReq });
  });
  return out;
}

/** Whether a batchexecute call's f.req carries `text` as a JSON string's content (a submit names its prompt). */
function carries(response: Response, text: string): boolean {
  const form = new URLSearchParams(response.request().postData() ?? '');
  return (form.get('f.req') ?? '').includes(JSON.stringify(text).slice(1, -1));
}

/** Generates one image or video in a project through its composer, like a person; returns the new tile's media id. */
export async function makeMedia(
  context: BrowserContext,
  projectId: string,
  kind: 'image' | 'video',
  prompt: string,
): Promise<string> {
  const page = await context.newPage();
  try {
    await openProject(page, projectId);
    const tiles = page.locator(`${kind === 'image' ? 'flow-image-tile' : 'flow-video-tile'} img[data-media-id]`);
    const ids = (): Promise<Array<string | null>> =>
      tiles.evaluateAll((els) => els.map((e) => e.getAttribute('data-media-id')));
    const before = new Set(await ids());
    if (kind === 'image') await pickSettings(page, [{ icon: 'image' }]);
    await typePrompt(page, prompt);
    // The submit's reply before any tile counts: a tile of an earlier submit that only now shows
    // (the grid still loading) must not end the wait while this submit is still unsent.
    const answered = page.waitForResponse((r) => r.url().includes('/data/batchexecute') && carries(r, prompt));
    await submit(page);
    await answered;
    for (let i = 0; i < 300; i += 1) {
      const fresh = (await ids()).find((id) => id !== null && !before.has(id));
      if (fresh !== undefined && fresh !== null) return fresh;
      await page.waitForTimeout(100);
    }
    throw new Error(`no new ${kind} tile appeared`);
  } finally {
    await page.close();
  }
}
