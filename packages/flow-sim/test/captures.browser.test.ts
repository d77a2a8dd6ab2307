// One contract test per fact the original project captured from the real flow.google.com
// (../../../shared/reference/flow-captures.md, "§n" in each name): the simulator behaves that way
// by default, and where the evidence is a peer model or [U] its variants are shown too. Plain
// playwright-core in system Chromium, no gflow driver.
import { afterEach, describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { makePng } from '../src/index.js';
import { openProject, pickSettings, submit, typePrompt, useSimBrowser } from './harness.js';

const rig = useSimBrowser({ seed: 'captures-contract' });

afterEach(() => {
  rig.sim.scenario.resetVariants();
  rig.sim.scenario.clearFailures();
  rig.sim.scenario.setLocale('en-US');
});

let accounts = 0;
async function signedIn(init: { tier?: 'free' | 'pro' | 'ultra'; consentBar?: 'none' | 'reject' | 'notice' } = {}) {
  const email = `captures-${(accounts += 1)}@example.com`;
  rig.sim.scenario.createAccount({ email, uploadTermsAccepted: true, ...init });
  const project = rig.sim.scenario.createProject(email);
  const opened = await rig.signedInPage(email);
  return { email, project, ...opened };
}

/** Every JSON reply of an rpc the page receives, decoded (`)]}'` envelope, `wrb.fr` payloads). */
function watchPayloads(page: Page, rpcId: string): Array<{ at: number; payload: unknown }> {
  const seen: Array<{ at: number; payload: unknown }> = [];
  page.on('response', (r: Response) => {
    if (!r.url().includes('/data/batchexecute') || !(r.request().postData() ?? '').includes(rpcId)) return;
    r.text().then(
      (text) => {
        for (const line of text.split('\n')) {
          if (!line.startsWith('[')) continue;
          for (const item of JSON.parse(line) as unknown[][]) {
            if (item[0] === 'wrb.fr' && item[1] === rpcId && typeof item[2] === 'string')
              seen.push({ at: Date.now(), payload: JSON.parse(item[2]) });
          }
        }
      },
      () => undefined,
    );
  });
  return seen;
}

/** One batchexecute call made from the page the way its own scripts make it; the `wrb.fr` payload it got back. */
async function askOnPage(page: Page, rpcId: string, inner: unknown): Promise<unknown> {
  const text = await page.evaluate(
    async ({ rpcId, inner }) => {
      const wiz = (window as unknown as { WIZ_global_data: { SNlM0e: string } }).WIZ_global_data;
      const body = new URLSearchParams({
        'f.req': JSON.stringify([[[rpcId, JSON.stringify(inner), null, 'generic']]]),
        at: wiz.SNlM0e,
      });
      const res = await fetch(`/_/AiSandboxAngularFrontend/data/batchexecute?rpcids=${rpcId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', 'x-same-domain': '1' },
        body: `${body}&`,
      });
      return res.text();
    },
    { rpcId, inner },
  );
  for (const line of text.split('\n')) {
    if (!line.startsWith('[')) continue;
    for (const item of JSON.parse(line) as unknown[][])
      if (item[0] === 'wrb.fr' && item[1] === rpcId && typeof item[2] === 'string') return JSON.parse(item[2]);
  }
  throw new Error(`no ${rpcId} payload in the reply: ${text.slice(0, 200)}`);
}

/** Video records (`[wf, project, media, MARKER, null, DETAILS, null, INFO]`) anywhere in a payload. */
function recordsIn(value: unknown, out: unknown[][] = []): unknown[][] {
  if (!Array.isArray(value)) return out;
  if (
    value.length >= 8 &&
    typeof value[0] === 'string' &&
    typeof value[2] === 'string' &&
    Array.isArray(value[5]) &&
    Array.isArray(value[7])
  )
    out.push(value);
  else for (const v of value) recordsIn(v, out);
  return out;
}

async function mention(page: Page, name: string, ligature = 'image'): Promise<void> {
  await page.keyboard.type(`@${name.slice(0, 6)}`);
  const option = page
    .locator('.cdk-overlay-pane button[role=option].asset-item')
    .filter({ has: page.locator(`.asset-name:text-is("${name}")`) })
    .filter({ has: page.locator(`mat-icon:text-is("${ligature}")`) });
  await option.first().click();
}

/** One image through the classic composer, as a person makes it; resolves once its tile is shown. */
async function t2iImage(page: Page, project: { id: string }, prompt: string): Promise<void> {
  await openProject(page, project.id);
  await pickSettings(page, [{ icon: 'image' }]);
  await typePrompt(page, prompt);
  await submit(page);
  await page.locator('flow-image-tile').first().waitFor();
}

async function t2vClip(page: Page, project: { id: string }): Promise<string> {
  await openProject(page, project.id);
  await pickSettings(page, [{ icon: 'videocam' }, { token: '8' }]);
  await typePrompt(page, 'a red kite over a hill');
  await submit(page);
  const tile = page.locator('flow-video-tile img[data-media-id]').first();
  await tile.waitFor({ timeout: 60_000 });
  return (await tile.getAttribute('data-media-id')) ?? '';
}

describe('flow-captures.md, by default', () => {
  it('§1 a media @ chip carries no entity id, a character chip its entity id, and the body carries both ids', async () => {
    const { email, project, page, ctx } = await signedIn();
    const { mediaId } = rig.sim.scenario.addUpload(email, project.id, 'harbour-1a2b3c4d.png', makePng(64, 64, 'h'));
    const character = rig.sim.scenario.addCharacter(project.id, { displayName: 'Marlow' });
    await openProject(page, project.id);
    await pickSettings(page, [{ icon: 'image' }]);
    await page.click('flow-prompt-box [contenteditable=true]');
    await mention(page, 'harbour-1a2b3c4d.png');
    await page.keyboard.insertText(' and ');
    await mention(page, 'Marlow', 'person');
    const chips = await page
      .locator('.mention-chip')
      .evaluateAll((els) =>
        els.map((e) => [e.getAttribute('data-reference-type'), e.getAttribute('data-entity-id'), e.textContent]),
      );
    expect(chips).toEqual([
      ['media', null, '@harbour-1a2b3c4d.png'],
      ['entity', character.entityId, '@Marlow'],
    ]);
    await submit(page);
    await page.locator('flow-image-tile').first().waitFor();
    const inner = rig.sim.received.calls('ogiZ0b').at(-1)?.inner ?? '';
    expect(inner).toContain(mediaId);
    expect(inner).toContain(character.entityId);
    await ctx.close();
  });

  it('§1 an @ option reads as its name followed directly by its type word ("me.jpgImage")', async () => {
    const { email, project, page, ctx } = await signedIn();
    rig.sim.scenario.addUpload(email, project.id, 'me.jpg', makePng(64, 64, 'me'));
    rig.sim.scenario.addCharacter(project.id, { displayName: 'Marlow' });
    await openProject(page, project.id);
    await pickSettings(page, [{ icon: 'image' }]);
    await page.click('flow-prompt-box [contenteditable=true]');
    await page.keyboard.type('@m');
    const options = page.locator('.cdk-overlay-pane button[role=option].asset-item');
    await expect
      .poll(async () =>
        (
          await options.evaluateAll((els) =>
            els.map((e) => {
              const clone = e.cloneNode(true) as Element;
              for (const icon of Array.from(clone.querySelectorAll('mat-icon'))) icon.remove();
              return (clone.textContent ?? '').trim();
            }),
          )
        ).sort(),
      )
      .toEqual(['MarlowCharacter', 'Marlow.pngImage', 'me.jpgImage'].sort());
    await ctx.close();
  });

  it('§2 a loaded video tile plays from /asb/…, which redirects to *.googlevideo.com with video/mp4 bytes (ftyp)', async () => {
    const { project, page, ctx } = await signedIn();
    const mediaId = await t2vClip(page, project);
    await openProject(page, project.id);
    const tile = page.locator('flow-video-tile').filter({ has: page.locator(`img[data-media-id="${mediaId}"]`) });
    await tile.hover();
    const src = await tile.locator('video').evaluate((v) => (v as HTMLVideoElement).getAttribute('src') ?? '');
    expect(src).toMatch(/^\/asb\//);
    const fetched = await page.evaluate(async (url) => {
      const res = await fetch(url, { credentials: 'same-origin' });
      const bytes = new Uint8Array(await res.arrayBuffer());
      return {
        finalUrl: res.url,
        redirected: res.redirected,
        type: res.headers.get('content-type'),
        head: String.fromCharCode(...bytes.subarray(4, 8)),
        size: bytes.length,
      };
    }, src);
    expect(fetched.redirected).toBe(true);
    expect(new URL(fetched.finalUrl).hostname).toMatch(/\.googlevideo\.com$/);
    expect(fetched.type).toBe('video/mp4');
    expect(fetched.head).toBe('ftyp');
    await ctx.close();
  });

  it('§4 jwpduf reports status 3 with the byte size and no URL; the URLs arrive on as29s 2–8 s later (urlDelay measured, at fast latency)', async () => {
    const { project, page, ctx } = await signedIn();
    const polls = watchPayloads(page, 'jwpduf');
    const fetches = watchPayloads(page, 'as29s');
    rig.sim.scenario.setUrlDelay('measured');
    try {
      await t2vClip(page, project);
    } finally {
      rig.sim.scenario.setUrlDelay('scaled');
    }
    const done = polls
      .flatMap((p) => recordsIn(p.payload).map((r) => ({ at: p.at, r })))
      .filter(({ r }) => (r[5] as unknown[])[8]?.toString() === '3');
    expect(done.length).toBeGreaterThan(0);
    for (const { r } of done) {
      expect(typeof (r[5] as unknown[])[13]).toBe('number');
      expect((r[5] as unknown[])[10]).toBeNull();
      expect(((r[7] as unknown[])[0] as unknown[])[8]).toBeNull();
    }
    const withUrl = fetches.find((f) =>
      recordsIn([f.payload]).some((r) => typeof ((r[7] as unknown[])[0] as unknown[])[8] === 'string'),
    );
    expect(withUrl).toBeDefined();
    expect((withUrl?.at ?? 0) - (done[0]?.at ?? 0)).toBeGreaterThanOrEqual(1_500);
    await ctx.close();
  });

  it('§4 status 3 without a URL shows on several polls and fetches first, then the URL arrives on as29s', async () => {
    const { project, page, ctx } = await signedIn();
    const polls = watchPayloads(page, 'jwpduf');
    const fetches = watchPayloads(page, 'as29s');
    const hasUrl = (payload: unknown): boolean =>
      recordsIn([payload]).some((r) => typeof ((r[7] as unknown[])[0] as unknown[])[8] === 'string');
    const doneWithoutUrl = (): number =>
      polls
        .flatMap((p) => recordsIn(p.payload))
        .filter((r) => (r[5] as unknown[])[8]?.toString() === '3' && (r[5] as unknown[])[10] === null).length;
    // The URL gap is Flow's (2–8 s, scaled): held here so the state is seen on as many polls as asked.
    rig.sim.scenario.holdVideoUrls();
    try {
      await openProject(page, project.id);
      await pickSettings(page, [{ icon: 'videocam' }, { token: '8' }]);
      await typePrompt(page, 'a red kite over a hill');
      await submit(page);
      await expect.poll(doneWithoutUrl, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
      await expect.poll(() => fetches.length, { timeout: 60_000 }).toBeGreaterThan(0);
    } finally {
      rig.sim.scenario.releaseVideoUrls();
    }
    await page.locator('flow-video-tile img[data-media-id]').first().waitFor({ timeout: 60_000 });
    expect(fetches.length).toBeGreaterThan(0);
    expect(hasUrl(fetches[0]?.payload)).toBe(false);
    expect(fetches.some((f) => hasUrl(f.payload))).toBe(true);
    expect(
      polls.some((p) => hasUrl(p.payload)),
      'jwpduf never carries the URL by default',
    ).toBe(false);
    await ctx.close();
  });

  it('§5 the record marker (slot 3) is null', async () => {
    const { project, page, ctx } = await signedIn();
    const polls = watchPayloads(page, 'jwpduf');
    await t2vClip(page, project);
    const markers = polls.flatMap((p) => recordsIn(p.payload).map((r) => r[3]));
    expect(markers.length).toBeGreaterThan(0);
    expect(new Set(markers)).toEqual(new Set([null]));
    await ctx.close();
  });

  it('§6 an image reply with no record is not a refusal (image_empty_reply); a policy refusal comes as a refusal frame [U]', async () => {
    const { email, project, page, ctx } = await signedIn();
    rig.sim.scenario.setFailure(email, 'image_empty_reply', { times: 1 });
    const replies = watchPayloads(page, 'ogiZ0b');
    await openProject(page, project.id);
    await pickSettings(page, [{ icon: 'image' }]);
    await typePrompt(page, 'an empty reply');
    await submit(page);
    await expect.poll(() => replies.length).toBe(1);
    expect(replies[0]?.payload).toEqual([[], []]);
    await ctx.close();
  });

  it('§7 the image menu offers Nano Banana 2.1 (BELUGA) and not Nano Banana 2', async () => {
    const { project, page, ctx } = await signedIn();
    await openProject(page, project.id);
    await pickSettings(page, [{ icon: 'image' }]);
    await page.click('.settings-trigger-button');
    await page.click('.cdk-overlay-pane:has([role=radiogroup]) button:has(mat-icon:text-is("arrow_drop_down"))');
    const labels = (await page.locator('[role=menu] [role=menuitem] .mat-mdc-menu-item-text').allTextContents()).map(
      (t) => t.trim(),
    );
    expect(labels).toContain('Nano Banana 2.1');
    expect(labels).not.toContain('Nano Banana 2');
    await ctx.close();
  });

  it('§8 the download menu is in the tile detail view, labels localised (pt-BR "2K (Aprimorada)", "Fazer upgrade"), 4K disabled below Ultra, 270p GIF enabled', async () => {
    const { project, page, ctx } = await signedIn({ tier: 'pro' });
    const mediaId = await t2vClip(page, project);
    await pickSettings(page, [{ icon: 'image' }]);
    await typePrompt(page, 'a still of the kite');
    await submit(page);
    await page.locator('flow-image-tile').first().waitFor();
    rig.sim.scenario.setLocale('pt-BR');
    await openProject(page, project.id);
    expect(await page.locator('flow-image-tile button, flow-video-tile button').count()).toBe(0);
    await page.locator('flow-image-tile').first().click();
    await page.locator('flow-asset-detail-view button:has(mat-icon:text-is("download"))').click();
    const items = page.locator('[role=menu] [role=menuitem]');
    expect((await items.allTextContents()).map((t) => t.trim())).toEqual([
      '1K (Tamanho original)',
      '2K (Aprimorada)',
      '4K (Aprimorada)Fazer upgrade',
    ]);
    expect(await items.nth(2).getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page
      .locator('flow-video-tile')
      .filter({ has: page.locator(`img[data-media-id="${mediaId}"]`) })
      .click();
    await page.locator('flow-asset-detail-view button:has(mat-icon:text-is("download"))').click();
    const gif = items.filter({ hasText: '270p' });
    expect(await gif.getAttribute('aria-disabled')).toBeNull();
    const download = page.waitForEvent('download');
    await gif.click();
    const { readFileSync } = await import('node:fs');
    const bytes = readFileSync(await (await download).path());
    expect(bytes.toString('latin1', 0, 6)).toBe('GIF89a');
    const decoded = await page.evaluate(async (b64) => {
      const img = new Image();
      img.src = `data:image/gif;base64,${b64}`;
      await img.decode();
      return { w: img.naturalWidth, h: img.naturalHeight };
    }, bytes.toString('base64'));
    expect(decoded.h).toBe(270);
    await ctx.close();
  });

  it('§9 the consent bar puts accept before reject; the settings trigger has no aria-haspopup; aspect radios carry a text label', async () => {
    const { project, page, ctx } = await signedIn({ consentBar: 'reject' });
    await openProject(page, project.id);
    const order = await page
      .locator('.glue-cookie-notification-bar button')
      .evaluateAll((els) => els.map((e) => e.className));
    expect(order).toEqual(['glue-cookie-notification-bar__accept', 'glue-cookie-notification-bar__reject']);
    await page.click('.glue-cookie-notification-bar__reject');
    expect(await page.locator('.settings-trigger-button').getAttribute('aria-haspopup')).toBeNull();
    await page.click('.settings-trigger-button');
    const radio = page
      .locator('[role=radio]')
      .filter({ has: page.locator('mat-icon:text-is("crop_16_9")') })
      .first();
    expect(await radio.locator('.mat-button-toggle-label-content').textContent()).toBe('16:9');
    await ctx.close();
  });

  it('§9 maseq_project_id_first: the upload reply names the project id first (the confusion the original guards against)', async () => {
    const { email, project, page, ctx } = await signedIn();
    rig.sim.scenario.setFailure(email, 'maseq_project_id_first', { times: 1 });
    const replies = watchPayloads(page, 'maseQ');
    await openProject(page, project.id);
    const chooser = page.waitForEvent('filechooser');
    await page.click('xpath=//button[.//mat-icon[normalize-space()="add"]][not(ancestor::flow-prompt-box)]');
    await page
      .locator('.cdk-overlay-pane [role=menuitem]')
      .filter({ has: page.locator('mat-icon:text-is("upload")') })
      .click();
    await (await chooser).setFiles({ name: 'x-1a2b3c4d.png', mimeType: 'image/png', buffer: makePng(32, 32, 'x') });
    await expect.poll(() => replies.length).toBe(1);
    expect((replies[0]?.payload as unknown[])[0]).toBe(project.id);
    await ctx.close();
  });
});

describe('flow-captures.md, the variants of what is uncertain', () => {
  it('§1 mediaChipEntityId=media-id: a media chip carries the media id', async () => {
    rig.sim.scenario.setVariants({ mediaChipEntityId: 'media-id' });
    const { email, project, page, ctx } = await signedIn();
    const { mediaId } = rig.sim.scenario.addUpload(email, project.id, 'pier-1a2b3c4d.png', makePng(64, 64, 'p'));
    await openProject(page, project.id);
    await page.click('flow-prompt-box [contenteditable=true]');
    await mention(page, 'pier-1a2b3c4d.png');
    expect(await page.locator('.mention-chip').getAttribute('data-entity-id')).toBe(mediaId);
    await ctx.close();
  });

  it.each([['CAE'], ['CAF']] as const)('§5 recordMarker=%s: the marker slot holds it', async (marker) => {
    rig.sim.scenario.setVariants({ recordMarker: marker });
    const { project, page, ctx } = await signedIn();
    const polls = watchPayloads(page, 'jwpduf');
    await t2vClip(page, project);
    expect(new Set(polls.flatMap((p) => recordsIn(p.payload).map((r) => r[3])))).toEqual(new Set([marker]));
    await ctx.close();
  });

  it('§4 videoUrls=poll: jwpduf carries the URLs once they exist', async () => {
    rig.sim.scenario.setVariants({ videoUrls: 'poll' });
    const { project, page, ctx } = await signedIn();
    // The tile shows once as29s handed the page its URL, so the URLs exist by then; whether one of the
    // page's own 5 s polls fell after that moment is the machine's timing, so the test asks once itself.
    const mediaId = await t2vClip(page, project);
    const reply = await askOnPage(page, 'jwpduf', [[mediaId], project.id]);
    const record = recordsIn(reply).find((r) => r[2] === mediaId);
    expect(((record?.[7] as unknown[])[0] as unknown[])[8]).toMatch(/^https:\/\/flow-content\.google\/video\//);
    await ctx.close();
  });

  it('§2 videoTileSrc=cdn: a loaded video tile plays the signed CDN mp4 directly', async () => {
    rig.sim.scenario.setVariants({ videoTileSrc: 'cdn' });
    const { project, page, ctx } = await signedIn();
    await t2vClip(page, project);
    await openProject(page, project.id);
    await page.locator('flow-video-tile').first().hover();
    expect(await page.locator('flow-video-tile video').first().getAttribute('src')).toMatch(
      /^https:\/\/flow-content\.google\/video\//,
    );
    await ctx.close();
  });

  it.each([['keep'], ['clear']] as const)(
    '[U] composerAfterSubmit=%s: what the composer holds once a submit is sent',
    async (after) => {
      rig.sim.scenario.setVariants({ composerAfterSubmit: after });
      const { project, page, ctx } = await signedIn();
      await t2iImage(page, project, 'a wren on a wire');
      expect(rig.sim.received.calls('ogiZ0b').at(-1)?.inner).toContain('a wren on a wire');
      const left = await page.locator('flow-prompt-box [contenteditable=true]').innerText();
      expect(left.trim()).toBe(after === 'keep' ? 'a wren on a wire' : '');
      await ctx.close();
    },
  );

  it.each([['listed'], ['empty']] as const)(
    '[U] libraryPickerOpens=%s: what the Frames picker lists before anything is typed',
    async (opens) => {
      rig.sim.scenario.setVariants({ libraryPickerOpens: opens });
      const { email, project, page, ctx } = await signedIn();
      rig.sim.scenario.addUpload(email, project.id, 'gull-1a2b3c4d.png', makePng(64, 64, 'g'));
      await openProject(page, project.id);
      await pickSettings(page, [{ icon: 'videocam' }, { icon: 'crop_free' }]);
      const before = rig.sim.received.calls('UpteDb').length;
      await page.locator('flow-prompt-box button.empty-chip').first().click();
      const popover = page.locator('flow-add-menu-popover-content');
      const option = popover.locator('button.asset-item[role=option]', { hasText: 'gull-1a2b3c4d.png' });
      // Listed: the picker's own search of nothing lists the upload. Empty: only a typed query searches.
      if (opens === 'empty') await popover.locator('input[type=text]').fill('gull');
      await option.waitFor();
      const queries = rig.sim.received
        .calls('UpteDb')
        .slice(before)
        .map((c) => (JSON.parse(c.inner) as unknown[])[0]);
      expect(queries).toEqual(opens === 'listed' ? [''] : ['gull']);
      await ctx.close();
    },
  );

  it('§7 imageMenu=nb2: the earlier menu offers Nano Banana 2 (NARWHAL) and not 2.1', async () => {
    rig.sim.scenario.setVariants({ imageMenu: 'nb2' });
    const { project, page, ctx } = await signedIn();
    await t2iImage(page, project, 'an owl');
    expect(JSON.parse(rig.sim.received.calls('ogiZ0b').at(-1)?.inner ?? 'null')[0][1]).toBe('NARWHAL');
    await ctx.close();
  });

  it('§9 imageReply=wrapped and projectReply=wrapped: other layouts of the same records', async () => {
    rig.sim.scenario.setVariants({ imageReply: 'wrapped', projectReply: 'wrapped' });
    const { project, page, ctx } = await signedIn();
    const replies = watchPayloads(page, 'ogiZ0b');
    await openProject(page, project.id);
    await pickSettings(page, [{ icon: 'image' }]);
    await typePrompt(page, 'a heron');
    await submit(page);
    await page.locator('flow-image-tile').first().waitFor();
    const payload = replies[0]?.payload as unknown[];
    expect(payload[0]).toBeNull();
    expect(payload[3]).toBe(1);
    // The page's own wire client (a string, so the test runner does not rewrite the import).
    const replies2 = await page.evaluate(`(async () => {
      const wire = await import('/_/static/wire.js');
      const created = await wire.rpc('jHPbke', ['A heron study']);
      const renamed = await wire.rpc('o8DA4', [created[1][0], 'Herons']);
      return { created, renamed };
    })()`);
    expect(replies2).toEqual({
      created: [null, [expect.any(String), 'A heron study']],
      renamed: [['Herons', expect.any(String)]],
    });
    await ctx.close();
  });

  it('refuses an unknown variant or value instead of silently testing the default', () => {
    expect(() => rig.sim.scenario.setVariants({ recordMarker: 'CAX' } as never)).toThrow(
      /recordMarker takes null \| CAE \| CAF/,
    );
    expect(() => rig.sim.scenario.setVariants({ nope: 'x' } as never)).toThrow(/unknown variant: nope/);
  });
});
