import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makePng } from '../src/index.js';
import type { FailureName, FailureOptions } from '../src/types.js';
import { openProject, pickSettings, submit, typePrompt, uploadPng, useSimBrowser } from './harness.js';

let n = 0;

const rig = useSimBrowser({ seed: 'failures' });

async function withSwitch(name: FailureName, options: FailureOptions = {}, mode: 'image' | 'video' | 'none' = 'image') {
  n += 1;
  const email = `fail${n}@example.com`;
  rig.sim.scenario.createAccount({ email, uploadTermsAccepted: true });
  rig.sim.scenario.setFailure(email, name, options);
  const project = rig.sim.scenario.createProject(email);
  const { page, ctx } = await rig.signedInPage(email);
  await openProject(page, project.id);
  if (mode !== 'none') await pickSettings(page, [{ icon: mode === 'image' ? 'image' : 'videocam' }]);
  return { email, project, page, ctx };
}

async function replyOf(page: Page, rpcId: string, act: () => Promise<void>) {
  const res = page.waitForResponse(
    (r) =>
      r.url().includes('/data/batchexecute') &&
      decodeURIComponent(r.request().postData() ?? '').includes(`[[["${rpcId}"`),
  );
  await act();
  const r = await res;
  return { status: r.status(), text: await r.text(), headers: r.headers() };
}

describe('failure switches are observable in the browser', () => {
  it.each([
    ['unusual_activity', 7, 'PUBLIC_ERROR_UNUSUAL_ACTIVITY'],
    ['resource_exhausted', 8, 'PUBLIC_ERROR_RESOURCE_EXHAUSTED'],
    ['unauthenticated', 16, ''],
    ['invalid_argument', 3, 'PUBLIC_ERROR_INVALID_ARGUMENT'],
    ['internal_error', 13, ''],
  ] as const)('%s: refusal frame %i in slot [5], failed tile', async (name, code, reason) => {
    const { page, ctx } = await withSwitch(name);
    await typePrompt(page, 'refused');
    const reply = await replyOf(page, 'ogiZ0b', () => submit(page));
    expect(reply.status).toBe(200);
    expect(reply.text).toContain(`["wrb.fr","ogiZ0b",null,null,null,[${code}`);
    if (reason !== '') expect(reply.text).toContain(reason);
    await page.locator('flow-failed-tile').waitFor();
    expect(await page.locator('.mat-mdc-snack-bar-container').first().textContent()).toContain(`(${code}`);
    await ctx.close();
  });

  it.each([
    ['http_429', 429, {}],
    ['http_403', 403, {}],
    ['http_5xx', 500, { status: 500 }],
  ] as const)('%s: the submit answers HTTP %s', async (name, status, options) => {
    const { page, ctx } = await withSwitch(name, { retryAfter: 7, ...options });
    await typePrompt(page, 'http failure');
    const reply = await replyOf(page, 'ogiZ0b', () => submit(page));
    expect(reply.status).toBe(status);
    if (status === 429) expect(reply.headers['retry-after']).toBe('7');
    await page.locator('flow-failed-tile').waitFor();
    await ctx.close();
  });

  it('content_policy: image refusal frame naming the policy [U]; video fails with status 7 and refunds', async () => {
    const { page, ctx, email } = await withSwitch('content_policy', { times: 2 });
    await typePrompt(page, 'not allowed');
    const reply = await replyOf(page, 'ogiZ0b', () => submit(page));
    expect(reply.text).toContain('PUBLIC_ERROR_CONTENT_POLICY_VIOLATION');
    await page.locator('flow-failed-tile').waitFor();
    await pickSettings(page, [{ icon: 'videocam' }]);
    const before = rig.sim.scenario.getCredits(email);
    await submit(page);
    await page.locator('flow-failed-tile').nth(1).waitFor();
    expect(rig.sim.scenario.getCredits(email)).toBe(before);
    await ctx.close();
  });

  it('unknown_status: the job ends with a status nobody knows and the grid shows a failed tile', async () => {
    const { page, ctx } = await withSwitch('unknown_status', { status: 42 }, 'video');
    const texts: string[] = [];
    page.on(
      'response',
      (r) =>
        void (
          r.url().includes('rpcids=jwpduf') &&
          r.text().then(
            (t) => texts.push(t),
            () => undefined,
          )
        ),
    );
    await typePrompt(page, 'odd status');
    await submit(page);
    await page.locator('flow-failed-tile').waitFor();
    expect(texts.join('')).toContain('[42]');
    await ctx.close();
  });

  it('done_without_url: status 3 arrives but as29s never carries a URL; no video tile', async () => {
    const { page, ctx } = await withSwitch('done_without_url', {}, 'video');
    const as29s: string[] = [];
    page.on(
      'response',
      (r) =>
        void (
          r.url().includes('rpcids=as29s') &&
          r.text().then(
            (t) => as29s.push(t),
            () => undefined,
          )
        ),
    );
    await typePrompt(page, 'no url');
    await submit(page);
    await expect.poll(() => as29s.length, { timeout: 10_000 }).toBeGreaterThan(3);
    expect(as29s.join('')).not.toContain('flow-content.google/video/');
    expect(await page.locator('flow-video-tile').count()).toBe(0);
    await ctx.close();
  });

  it('swapped_urls: the poster slot carries the mp4 URL (tile image points at /video/)', async () => {
    const { page, ctx } = await withSwitch('swapped_urls', {}, 'video');
    await typePrompt(page, 'swapped');
    await submit(page);
    const img = page.locator('flow-video-tile img');
    await img.waitFor();
    expect(await img.getAttribute('src')).toContain('flow-content.google/video/');
    await ctx.close();
  });

  it('size_mismatch: DETAILS[13] differs from the bytes served', async () => {
    const { page, ctx } = await withSwitch('size_mismatch', {}, 'video');
    const as29s: string[] = [];
    page.on(
      'response',
      (r) =>
        void (
          r.url().includes('rpcids=as29s') &&
          r.text().then(
            (t) => as29s.push(t),
            () => undefined,
          )
        ),
    );
    await typePrompt(page, 'sizes');
    await submit(page);
    await page.locator('flow-video-tile').waitFor();
    const record = as29s
      .map((t) => /\\"(https:\/\/flow-content\.google\/video\/[^\\]+)\\".*?/.exec(t))
      .find((m) => m !== null);
    const last = as29s.at(-1) ?? '';
    const payload = JSON.parse(JSON.parse(last.split('\n').find((l) => l.includes('wrb.fr')) ?? '[]')[0][2]);
    const mp4Url = payload[7][0][8] as string;
    expect(record).toBeDefined();
    const served = await page.evaluate(async (u) => (await (await fetch(u)).arrayBuffer()).byteLength, mp4Url);
    expect(payload[5][13]).not.toBe(served);
    await ctx.close();
  });

  it('mzza6b_null_status: MZZa6b answers [5] with no payload, yet the clip completes', async () => {
    const { page, ctx, email, project } = await withSwitch('mzza6b_null_status', {}, 'video');
    rig.sim.scenario.addUpload(email, project.id, 'ref-null.png', makePng(20, 20, 'r'));
    await openProject(page, project.id);
    await pickSettings(page, [{ icon: 'videocam' }, { icon: 'chrome_extension' }, { token: '8' }]);
    await page.click('flow-prompt-box [contenteditable=true]');
    await page.keyboard.type('@ref-null');
    await page.locator('.cdk-overlay-pane button[role=option].asset-item-active', { hasText: 'ref-null' }).waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.insertText(' runs');
    const reply = await replyOf(page, 'MZZa6b', () => submit(page));
    expect(reply.text).toContain('["wrb.fr","MZZa6b",null,null,null,[5],"generic"]');
    await page.locator('flow-video-tile').waitFor();
    await ctx.close();
  });

  it('poll_other_clip_first: jwpduf lists another clip first; the page still finds its own', async () => {
    const { page, ctx } = await withSwitch('poll_other_clip_first', {}, 'video');
    const polls: string[] = [];
    page.on(
      'response',
      (r) =>
        void (
          r.url().includes('rpcids=jwpduf') &&
          r.text().then(
            (t) => polls.push(t),
            () => undefined,
          )
        ),
    );
    await typePrompt(page, 'mine');
    await submit(page);
    const tile = page.locator('flow-video-tile img[data-media-id]');
    await tile.waitFor();
    const mine = await tile.getAttribute('data-media-id');
    const firstPayload = JSON.parse(JSON.parse(polls[0]?.split('\n').find((l) => l.includes('wrb.fr')) ?? '[]')[0][2]);
    expect(firstPayload[2][0][0][2]).not.toBe(mine);
    await ctx.close();
  });

  it('stuck_generation: the image submit is never answered and the pending tile stays', async () => {
    const { page, ctx } = await withSwitch('stuck_generation');
    await typePrompt(page, 'forever');
    await submit(page);
    await page.locator('flow-pending-tile').waitFor();
    await expect
      .poll(() => rig.sim.received.calls('ogiZ0b').filter((c) => c.sourcePath.length > 0).length)
      .toBeGreaterThan(0);
    await page.waitForTimeout(1500); // a whole fast-mode image reply is ~0.4 s
    expect(await page.locator('flow-image-tile').count()).toBe(0);
    expect(await page.locator('flow-pending-tile').count()).toBe(1);
    await ctx.close();
  });

  it('maseq_no_id and maseq_http_400: upload replies without a UUID, then with HTTP 400', async () => {
    const { page, ctx, email } = await withSwitch('maseq_no_id', { times: 1 }, 'none');
    await expect(uploadPng(page, 'x.png')).rejects.toThrow(/without id/);
    rig.sim.scenario.setFailure(email, 'maseq_http_400');
    const reply = await replyOf(page, 'maseQ', async () => {
      await expect(uploadPng(page, 'y.png')).rejects.toThrow();
    });
    expect(reply.status).toBe(400);
    await ctx.close();
  });

  it('late_index: a fresh upload is missing from the first two picker searches', async () => {
    const { page, ctx, project } = await withSwitch('late_index', { searches: 2 }, 'none');
    await uploadPng(page, 'late-0001.png');
    await openProject(page, project.id);
    await pickSettings(page, [{ icon: 'videocam' }, { icon: 'crop_free' }]);
    const isSearch = (r: { url(): string }) => r.url().includes('rpcids=UpteDb');
    const first = page.waitForResponse(isSearch);
    await page.locator('flow-prompt-box button.empty-chip').first().click();
    await first;
    const popover = page.locator('flow-add-menu-popover-content');
    const option = popover.locator('button.asset-item', { hasText: 'late-0001.png' });
    await page.waitForTimeout(100);
    expect(await option.count()).toBe(0);
    const second = page.waitForResponse(isSearch);
    await popover.locator('input[type=text]').fill('late');
    await second;
    await page.waitForTimeout(100);
    expect(await option.count()).toBe(0);
    const third = page.waitForResponse(isSearch);
    await popover.locator('input[type=text]').fill('late-');
    await third;
    await option.waitFor();
    await ctx.close();
  });

  it('dropped_download: the content host cuts the body short', async () => {
    const { page, ctx } = await withSwitch('dropped_download');
    await typePrompt(page, 'cut short');
    await submit(page);
    const img = page.locator('flow-image-tile img');
    await img.waitFor();
    const src = (await img.getAttribute('src')) ?? '';
    const outcome = await page.evaluate(async (u) => {
      try {
        const buf = await (await fetch(u)).arrayBuffer();
        return `ok ${buf.byteLength}`;
      } catch (e) {
        return `error ${String(e)}`;
      }
    }, src);
    expect(outcome).toMatch(/^error/);
    await ctx.close();
  });

  it('identity_recheck: a project goto hops to /about; the CTA leads to "Confirm it\'s you"', async () => {
    n += 1;
    const email = `recheck${n}@example.com`;
    rig.sim.scenario.createAccount({ email });
    const project = rig.sim.scenario.createProject(email);
    const { page, ctx } = await rig.signedInPage(email);
    rig.sim.scenario.setFailure(email, 'identity_recheck');
    await page.goto(`https://flow.google.com/project/${project.id}`);
    await page.waitForURL('https://flow.google.com/about');
    await page.click('button.cta-button');
    await page.waitForURL(/accounts\.google\.com\/v3\/signin\/confirmidentifier/);
    await page.fill('input[name=Passwd]', 'again');
    await page.click('#passwordNext button');
    await page.waitForURL('https://flow.google.com/');
    await openProject(page, project.id);
    await ctx.close();
  });

  it('held_sign_in: the sign-in page waits until the switch is cleared, then is served as usual', async () => {
    rig.sim.received.clear();
    rig.sim.scenario.setFailure('*', 'held_sign_in');
    const ctx = await (await rig.browser()).newContext({ ...rig.sim.contextOptions });
    try {
      const page = await ctx.newPage();
      const served = page.goto(rig.sim.signInUrl);
      await expect.poll(() => rig.sim.received.held(), { timeout: 30_000 }).toContain('/v3/signin/identifier');
      // Held: the navigation is still in flight (nothing was answered for it).
      let answered = false;
      void served.then(() => (answered = true));
      expect(answered).toBe(false);
      rig.sim.scenario.clearFailure('*', 'held_sign_in');
      await served;
      expect(await page.locator('#identifierId').count()).toBe(1);
    } finally {
      await ctx.close();
      rig.sim.scenario.clearFailures();
    }
  });
});
