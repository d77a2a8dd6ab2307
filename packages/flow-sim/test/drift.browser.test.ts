// Drift switches (src/drift.ts, README § "Drift switches"): an anchor renamed in the page as the
// app renders it, a read-only reply reshaped on the wire while the page's own code still reads it.
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makePng } from '../src/index.js';
import { useSimBrowser } from './harness.js';

const rig = useSimBrowser({ seed: 'drift' });
const email = 'drift@example.com';

afterEach(() => {
  rig.sim.scenario.setDrift([]);
});

async function openEditor(): Promise<{ page: Page; close: () => Promise<void> }> {
  rig.sim.scenario.createAccount({ email, credits: 500 });
  const project = rig.sim.scenario.projectsOf(email)[0] ?? rig.sim.scenario.createProject(email);
  const { page, ctx } = await rig.signedInPage(email);
  await page.goto(`https://flow.google.com/project/${project.id}`);
  await page.locator('flow-prompt-box').waitFor();
  return { page, close: () => ctx.close() };
}

const ligatures = (page: Page, within: string): Promise<string[]> =>
  page.locator(`${within} mat-icon`).evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));

describe('drift switches', () => {
  it('renames the anchors a switch names, from the first render on, and the app still works', async () => {
    rig.sim.scenario.setDrift(['submit_icon', 'settings_trigger']);
    const { page, close } = await openEditor();
    expect(await ligatures(page, 'flow-prompt-box')).toContain('send');
    expect(await ligatures(page, 'flow-prompt-box')).not.toContain('arrow_forward');
    expect(await page.locator('.settings-trigger-button').count()).toBe(0);
    await page.locator('.settings-toggle-button').click();
    await page.locator('.cdk-overlay-pane [role=radiogroup]').first().waitFor();
    await close();
  });

  it('leaves every anchor as captured when no switch is on', async () => {
    const { page, close } = await openEditor();
    expect(await ligatures(page, 'flow-prompt-box')).toContain('arrow_forward');
    expect(await page.locator('.settings-trigger-button').count()).toBe(1);
    await close();
  });

  it('reshapes the asset search reply on the wire; the page still lists the options', async () => {
    rig.sim.scenario.addUpload(
      email,
      rig.sim.scenario.projectsOf(email)[0]!.id,
      'drift-pic.png',
      makePng(32, 32, 'drift'),
    );
    rig.sim.scenario.setDrift(['search_reply']);
    const { page, close } = await openEditor();
    const reply = page.waitForResponse((r) => r.url().includes('rpcids=UpteDb'));
    await page.click('flow-prompt-box [contenteditable=true]');
    await page.keyboard.type('@drift');
    expect(await (await reply).text()).toContain('{\\"results\\":');
    await page.locator('.cdk-overlay-pane [role=option]').filter({ hasText: 'drift-pic.png' }).first().waitFor();
    await close();
  });
});
