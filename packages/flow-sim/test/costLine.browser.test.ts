// The settings pane's cost line and what a submit deducts (README § "Credits"), and the
// no_cost_line switch [U].
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openProject, pickModel, pickSettings, submit, typePrompt, useSimBrowser } from './harness.js';

const rig = useSimBrowser({ seed: 'cost-line' });

const PANE = '.cdk-overlay-pane:has([role=radiogroup])';

/** The pane's cost line as a person reads it (opens the pane, reads, closes it). */
async function costLine(page: Page): Promise<{ text: string; credits: number } | null> {
  await page.click('.settings-trigger-button');
  await page.locator(PANE).waitFor();
  const line = page.locator(`${PANE} .cost-line`);
  const out =
    (await line.count()) === 0
      ? null
      : { text: ((await line.textContent()) ?? '').trim(), credits: Number(await line.locator('b').textContent()) };
  await page.keyboard.press('Escape');
  await page.locator(PANE).waitFor({ state: 'detached' });
  return out;
}

async function open(email: string) {
  rig.sim.scenario.createAccount({ email, credits: 500 });
  const project = rig.sim.scenario.createProject(email);
  const opened = await rig.signedInPage(email);
  await openProject(opened.page, project.id);
  return opened;
}

describe('the cost line', () => {
  it('follows the cost table per model, duration, resolution and count, and is what a submit deducts', async () => {
    const email = 'costs@example.com';
    const { page, ctx } = await open(email);
    expect(await costLine(page)).toEqual({ text: 'Generating will use 10 credits', credits: 10 }); // Veo Lite 8 s (measured)
    await pickModel(page, 'Omni 1.1 Flash');
    expect((await costLine(page))?.credits).toBe(12); // Omni Flash 720p 8 s ×1 (measured)
    await pickSettings(page, [{ token: '4' }]);
    expect((await costLine(page))?.credits).toBe(6);
    await pickSettings(page, [{ token: '10' }, { token: 'x2' }]);
    expect((await costLine(page))?.credits).toBe(30);
    await pickSettings(page, [{ token: '8' }, { token: 'x1' }, { token: '360' }]);
    expect((await costLine(page))?.credits).toBe(6);
    await pickSettings(page, [{ token: '720' }]);
    expect((await costLine(page))?.credits).toBe(12);

    rig.sim.received.clear();
    await typePrompt(page, 'waves at dusk');
    await submit(page);
    await expect.poll(() => rig.sim.scenario.getCredits(email)).toBe(500 - 12);
    expect(rig.sim.received.charged(email)).toBe(12);

    await pickSettings(page, [{ icon: 'image' }]);
    expect((await costLine(page))?.credits).toBe(0); // images quoted as 0
    await pickModel(page, 'Nano Banana Pro');
    await pickSettings(page, [{ token: 'x3' }]);
    expect((await costLine(page))?.credits).toBe(15);
    await ctx.close();
  });

  it('no_cost_line: the pane has no cost line, and a submit still deducts its cost', async () => {
    const email = 'nocost@example.com';
    rig.sim.scenario.createAccount({ email, credits: 500 });
    rig.sim.scenario.setFailure(email, 'no_cost_line');
    const project = rig.sim.scenario.createProject(email);
    const { page, ctx } = await rig.signedInPage(email);
    await openProject(page, project.id);
    await pickModel(page, 'Omni 1.1 Flash');
    expect(await costLine(page)).toBeNull();
    await typePrompt(page, 'no quote shown');
    await submit(page);
    await expect.poll(() => rig.sim.scenario.getCredits(email)).toBe(500 - 12);
    await ctx.close();
  });
});
