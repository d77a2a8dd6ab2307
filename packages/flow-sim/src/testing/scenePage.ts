// The scene editor driven the way a person does (flow-captures.md §10), for the simulator's own
// contract tests and for tests that need a scene in place before the code under test runs.
import type { Page } from 'playwright-core';

/** The `+` of the scene's timeline (`add`, or `add_circle` on the storyboard layout). */
export function sceneAddButton(page: Page) {
  return page
    .locator('main button:has(mat-icon:text-is("add")), main button:has(mat-icon:text-is("add_circle"))')
    .last();
}

/**
 * Opens a scene holding the clip: its tile's detail view → the `movie` button (sceneEntry
 * 'detail'), else the toolbar's New scene → the timeline's "Add clip" → the clip by its thumbnail
 * (sceneEntry 'new-scene'). The project must be open. Resolves to the scene id.
 */
export async function openSceneWithClip(page: Page, mediaId: string): Promise<string> {
  const tile = page.locator(`flow-video-tile[data-media-id="${mediaId}"]`);
  const token = /\/asb\/([^/?#]+)/.exec((await tile.locator('img').getAttribute('src')) ?? '')?.[1];
  await tile.click();
  const toScene = page.locator('flow-asset-detail-view button:has(mat-icon:text-is("movie"))');
  if ((await toScene.count()) > 0) await toScene.click();
  else {
    await page.keyboard.press('Escape');
    await page.click('xpath=//button[.//mat-icon[normalize-space()="add"]][not(ancestor::flow-prompt-box)]');
    await page
      .locator('.cdk-overlay-pane [role=menuitem]')
      .filter({ has: page.locator('mat-icon:text-is("movie")') })
      .click();
  }
  await page.waitForURL(/\/scene\//);
  await sceneAddButton(page).waitFor();
  if ((await sceneClipCount(page)) === 0) {
    await sceneAddButton(page).click();
    await page
      .locator('[role=menuitem]')
      .filter({ has: page.locator('mat-icon:text-is("video_library")') })
      .click();
    await page.locator(`.cdk-overlay-pane [role=option]:has(img[src="/asb/${token ?? ''}"])`).click();
    await page.locator('flow-timeline-clip, [role=listitem].scene-shot').first().waitFor();
  }
  return /\/scene\/([^/?#]+)/.exec(page.url())?.[1] ?? '';
}

export function sceneClipCount(page: Page): Promise<number> {
  return page.locator('flow-timeline-clip, [role=listitem].scene-shot').count();
}

/** The texts of the timeline `+` menu's entries (ligatures removed), the menu left open. */
export async function sceneMenuEntries(page: Page): Promise<string[]> {
  await sceneAddButton(page).click();
  const items = page.locator('.cdk-overlay-pane [role=menuitem] .mat-mdc-menu-item-text');
  await items.first().waitFor();
  return items.allTextContents();
}

/** Timeline `+` → the entry containing `entryText` → the prompt → submit. */
export async function extendInScene(page: Page, prompt: string, entryText = 'Veo 3.1 - Lite'): Promise<void> {
  await sceneAddButton(page).click();
  await page.locator('.cdk-overlay-pane [role=menuitem]').filter({ hasText: entryText }).first().click();
  const field = page.locator('.extend-composer [contenteditable=true], .extend-composer textarea').first();
  await field.click();
  await page.keyboard.insertText(prompt);
  const submit = page.locator('.extend-composer button.extend-submit');
  await submit.and(page.locator(':not([disabled])')).waitFor();
  await submit.click();
}
