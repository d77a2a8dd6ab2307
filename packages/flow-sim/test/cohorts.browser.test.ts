import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openProject, pickSettings, signIn, submit, typePrompt, useSimBrowser, watchHosts } from './harness.js';

const rig = useSimBrowser({ seed: 'cohorts' });

describe('cohorts and landings', () => {
  it('classic: an un-pressed agent chip and a visible settings trigger', async () => {
    rig.sim.scenario.createAccount({ email: 'classic@example.com' });
    const p = rig.sim.scenario.createProject('classic@example.com');
    const { page, ctx } = await rig.signedInPage('classic@example.com');
    await openProject(page, p.id);
    expect(await page.getAttribute('button.agent-mode-chip', 'aria-pressed')).toBe('false');
    await ctx.close();
  });

  it('agent mode: chip pressed, trigger kept with a bare hidden attribute, recovered by clicking the chip', async () => {
    rig.sim.scenario.createAccount({ email: 'agent@example.com', cohort: 'agent_mode' });
    const p = rig.sim.scenario.createProject('agent@example.com');
    const { page, ctx } = await rig.signedInPage('agent@example.com');
    await page.goto(`https://flow.google.com/project/${p.id}`);
    await page.locator('button.agent-mode-chip[aria-pressed=true]').waitFor();
    expect(await page.getAttribute('.settings-trigger-button', 'hidden')).toBe('');
    expect(await page.locator('button.agent-action-button[aria-pressed]').count()).toBe(1);
    await page.click('flow-agent-panel button:has(mat-icon:text-is("close"))');
    await page.click('button.agent-mode-chip');
    await page.locator('.settings-trigger-button').waitFor({ state: 'visible' });
    await ctx.close();
  });

  it('agent-only: no chip, hidden trigger, agent composer; completion is DOM-only (no ogiZ0b)', async () => {
    const email = 'only@example.com';
    rig.sim.scenario.createAccount({ email, cohort: 'agent_only' });
    const p = rig.sim.scenario.createProject(email);
    const { page, ctx } = await rig.signedInPage(email);
    rig.sim.received.clear();
    await page.goto(`https://flow.google.com/project/${p.id}`);
    await page.locator('flow-creative-agent-prompt-box div.ProseMirror').waitFor();
    expect(await page.locator('button.agent-mode-chip').count()).toBe(0);
    expect(await page.getAttribute('.settings-trigger-button', 'hidden')).toBe('');
    await page.click('flow-creative-agent-prompt-box div.ProseMirror');
    await page.keyboard.insertText('Make me a picture of a red kite in a 9:16 aspect ratio.');
    await page.click('flow-generate-icon-button button');
    await page.locator('flow-stop-icon-button button.stop-button').waitFor();
    const img = page.locator('flow-image-tile img');
    await img.waitFor();
    expect(await img.getAttribute('src')).toMatch(/^https:\/\/flow-content\.google\/image\/[0-9a-f-]{36}\?/);
    const size = await img.evaluate((el) => {
      const i = el as unknown as { decode(): Promise<void>; naturalWidth: number; naturalHeight: number };
      return i.decode().then(() => [i.naturalWidth, i.naturalHeight]);
    });
    expect(size).toEqual([768, 1376]);
    expect(rig.sim.received.calls('ogiZ0b')).toHaveLength(0);
    await ctx.close();
  });

  it('signed out: the project URL answers 200 and hops client-side to /about with zero rpcs', async () => {
    const ctx = await (await rig.browser()).newContext(rig.sim.contextOptions);
    const page = await ctx.newPage();
    const rpcs: string[] = [];
    page.on('request', (r) => void (r.url().includes('batchexecute') && rpcs.push(r.url())));
    const res = await page.goto('https://flow.google.com/project/00000000-0000-4000-8000-000000000000');
    expect(res?.status()).toBe(200);
    expect(res?.headers()['location']).toBeUndefined();
    await page.waitForURL('https://flow.google.com/about');
    await page.locator('button.cta-button').waitFor();
    expect(rpcs).toEqual([]);
    await ctx.close();
  });

  it("someone else's project goes to /404?reason=project; an account without Flow goes to /unavailable", async () => {
    rig.sim.scenario.createAccount({ email: 'owner@example.com' });
    const other = rig.sim.scenario.createProject('owner@example.com');
    rig.sim.scenario.createAccount({ email: 'noflow@example.com', flowAccess: false });
    const { page, ctx } = await rig.signedInPage('owner2@example.com');
    await page.goto(`https://flow.google.com/project/${other.id}`);
    await page.waitForURL('https://flow.google.com/404?reason=project');
    await ctx.close();
    const second = await rig.signedInPage('noflow@example.com');
    await second.page.waitForURL('https://flow.google.com/unavailable');
    await second.ctx.close();
  });

  it('labs.google answers 308 to flow.google.com and the session oracle tells signed-in from signed-out', async () => {
    const { page, ctx } = await rig.signedInPage('labs@example.com');
    const res = await page.goto('https://labs.google/fx/tools/flow?hl=en');
    const hop = await res?.request().redirectedFrom()?.response();
    expect(hop?.status()).toBe(308);
    expect(hop?.headers()['location']).toBe('https://flow.google.com/?hl=en');
    await page.goto('https://labs.google/fx/api/auth/session');
    const session = JSON.parse((await page.textContent('body')) ?? '{}');
    expect(session.user.email).toBe('labs@example.com');
    expect(session.access_token).toMatch(/^ya29\./);
    const credits = await page.evaluate(async (token) => {
      const r = await fetch('https://aisandbox-pa.googleapis.com/v1/credits', {
        headers: { authorization: `Bearer ${token}` },
      });
      return r.json();
    }, session.access_token as string);
    expect(credits).toMatchObject({ credits: 1000, sku: 'G1_PRO' });
    await page.goto('https://myaccount.google.com/');
    expect(new URL(page.url()).hostname).toBe('myaccount.google.com');
    expect(await page.textContent('body')).toContain('labs@example.com');
    const anon = await (await rig.browser()).newContext(rig.sim.contextOptions);
    const apage = await anon.newPage();
    await apage.goto('https://labs.google/fx/api/auth/session');
    expect(JSON.parse((await apage.textContent('body')) ?? 'null')).toEqual({});
    await apage.goto('https://myaccount.google.com/');
    expect(apage.url()).toBe('https://www.google.com/account/about/');
    await anon.close();
    await ctx.close();
  });

  it('de-DE: labels are translated; duration radios still carry the number token; the driver anchors still work', async () => {
    rig.sim.scenario.setLocale('de-DE');
    try {
      rig.sim.scenario.createAccount({ email: 'de@example.com' });
      const p = rig.sim.scenario.createProject('de@example.com');
      const { page, ctx } = await rig.signedInPage('de@example.com');
      await openProject(page, p.id);
      expect(await page.getAttribute('flow-prompt-box [contenteditable=true]', 'data-placeholder')).toBe(
        'Was möchtest du erstellen?',
      );
      await pickSettings(page, [{ icon: 'videocam' }, { token: '4' }]);
      expect(await page.textContent('.settings-trigger-button')).toContain('4 Sek.');
      await typePrompt(page, 'ein Boot');
      await submit(page);
      await page.locator('flow-video-tile').waitFor();
      expect(rig.sim.received.calls('YhhmEf').at(-1)?.inner).toContain('veo_3_1_t2v_lite_4s');
      await ctx.close();
    } finally {
      rig.sim.scenario.setLocale('en-US');
    }
  });

  it('credits: a shortfall replaces the submit button with the warning (no spend)', async () => {
    rig.sim.scenario.createAccount({ email: 'poor@example.com', credits: 5 });
    const p = rig.sim.scenario.createProject('poor@example.com');
    const { page, ctx } = await rig.signedInPage('poor@example.com');
    await openProject(page, p.id);
    await page.locator('button.prompt-warning-button').waitFor();
    expect(await page.locator('flow-prompt-box button:has(mat-icon:text-is("arrow_forward"))').count()).toBe(0);
    expect(await page.textContent('.credits-amount')).toBe('5');
    await ctx.close();
  });

  it('the first upload shows the rights dialog and no maseQ leaves until it is accepted', async () => {
    rig.sim.scenario.createAccount({ email: 'rights@example.com' });
    const p = rig.sim.scenario.createProject('rights@example.com');
    const { page, ctx } = await rig.signedInPage('rights@example.com');
    await openProject(page, p.id);
    rig.sim.received.clear();
    const chooser = page.waitForEvent('filechooser');
    await page.click('xpath=//button[.//mat-icon[normalize-space()="add"]][not(ancestor::flow-prompt-box)]');
    await page.locator('.cdk-overlay-pane [role=menuitem]:has(mat-icon:text-is("upload"))').click();
    const { makePng } = await import('../src/index.js');
    await (await chooser).setFiles({ name: 'r.png', mimeType: 'image/png', buffer: makePng(10, 10) });
    await page.locator('[role=dialog] button.flow-button-medium').first().waitFor();
    await page.waitForTimeout(200);
    expect(rig.sim.received.calls('maseQ')).toHaveLength(0);
    await page.locator('[role=dialog] button.flow-button-medium').nth(1).click();
    await expect.poll(() => rig.sim.received.calls('maseQ').length).toBe(1);
    await ctx.close();
  });

  it('consent bar (z-index 1000) and promo dialog must be dismissed before the composer is usable', async () => {
    rig.sim.scenario.createAccount({ email: 'modal@example.com', consentBar: 'reject', promoDialog: true });
    const p = rig.sim.scenario.createProject('modal@example.com');
    const { page, ctx } = await rig.signedInPage('modal@example.com');
    await openProject(page, p.id);
    expect(
      await page
        .locator('#glue-cookie-notification-bar-1')
        .evaluate(
          (el) =>
            (globalThis as unknown as { getComputedStyle(e: unknown): { zIndex: string } }).getComputedStyle(el).zIndex,
        ),
    ).toBe('1000');
    await page.locator('[role=dialog]').waitFor();
    await page.click('[role=dialog] button:has(mat-icon:text-is("close"))');
    await page.click('button.glue-cookie-notification-bar__reject');
    await pickSettings(page, [{ icon: 'image' }]);
    await openProject(page, p.id);
    expect(await page.locator('#glue-cookie-notification-bar-1').count()).toBe(0);
    await ctx.close();
  });

  it('a persistent profile stays signed in across launches (cookies on the real domains)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flow-sim-profile-'));
    const launch = () => rig.launchPersistent(dir);
    const first = await launch();
    const hosts = watchHosts(first);
    await signIn(await first.newPage(), rig.sim, 'persist@example.com');
    const names = (await first.cookies()).map((c) => `${c.name}@${c.domain}`);
    expect(names).toContain('SAPISID@.google.com');
    expect(names).toContain('__Secure-OSID@flow.google.com');
    await first.close();
    const second = await launch();
    const page = await second.newPage();
    await page.goto('https://flow.google.com/');
    await page.locator('button.new-project-button').waitFor();
    await page.click('button.new-project-button');
    await page.waitForURL(/\/project\/[0-9a-f-]{36}$/);
    await page.locator('.settings-trigger-button').waitFor();
    expect(rig.sim.received.calls('jHPbke').length).toBeGreaterThan(0);
    expect([...hosts].every((h) => h.endsWith('google.com') || h.endsWith('.google') || h === 'labs.google')).toBe(
      true,
    );
    await second.close();
  });
});
