import type { BrowserContext } from 'playwright-core';

/** Test-only: generates one image or video in a simulated project through its composer, like a person. */
export async function makeMedia(context: BrowserContext, projectId: string, kind: 'image' | 'video', prompt: string): Promise<string> {
  const page = await context.newPage();
  try {
    await page.goto(`https://flow.google.com/project/${projectId}`);
    await page.locator('.settings-trigger-button').waitFor({ state: 'visible' });
    const tag = kind === 'image' ? 'flow-image-tile' : 'flow-video-tile';
    const before = new Set(await page.locator(`${tag} img[data-media-id]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-media-id'))));
    if (kind === 'image') {
      await page.click('.settings-trigger-button');
      const radio = page.locator('.cdk-overlay-pane:has([role=radiogroup]) [role=radio]').filter({ has: page.locator('mat-icon:text-is("image")') });
      await radio.click();
      await radio.and(page.locator('[aria-checked=true]')).waitFor();
      await page.keyboard.press('Escape');
    }
    await page.click('flow-prompt-box [contenteditable=true]');
    await page.keyboard.insertText(prompt);
    const submit = page.locator('flow-prompt-box button:has(mat-icon:text-is("arrow_forward"))');
    await submit.and(page.locator(':not([disabled])')).waitFor();
    await submit.click();
    for (let i = 0; i < 300; i += 1) {
      const ids = await page.locator(`${tag} img[data-media-id]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-media-id')));
      const fresh = ids.find((id) => id !== null && !before.has(id));
      if (fresh !== undefined && fresh !== null) return fresh;
      await page.waitForTimeout(100);
    }
    throw new Error(`no new ${kind} tile appeared`);
  } finally {
    await page.close();
  }
}
