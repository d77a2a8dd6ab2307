import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { MediaUploadRejectedError, UiSelectorDriftError, WireFormatError } from '@gflow/errors';
import { mimeOf } from '@gflow/flow-facts';
import { type PickerRow, asbToken, parseSearchRows } from '../characters/characterRows.js';
import { readUploadable, runUniqueName } from '../composer/uploads.js';
import { projectIdOfUrl } from '../flow/hosts.js';
import { withLigature } from '../projects/flowPage.js';
import { expectRpcReply, payloadOf } from '../projects/rpcReply.js';
import { untilDom } from '../util/domWait.js';
import { SEARCH_RPC } from '../composer/searchReply.js';
import { firstUuid } from '../wire/uuid.js';

/**
 * [U] The project editor's brief panel. Flow's was never captured (flow-wire §3b/§5 know only labs'
 * `agentInfo.projectBrief` and its PATCH); these anchors follow the simulator's contract
 * (packages/flow-sim/README.md "The brief panel"): structure, roles and Material ligatures, never
 * labels. gflow drives the panel as a person would, and sends no request of its own.
 */
export const PANEL = 'aside.instructions-panel, flow-instructions-panel';
export const CARD = 'flow-instruction-card';
export const EDITOR = 'flow-instruction-card-editor';
const BUSY = 'aside.instructions-panel[aria-busy="true"], flow-instructions-panel[aria-busy="true"]';
const OPTION = '.cdk-overlay-pane [role="option"]';
const MENU_ITEM = '.cdk-overlay-pane [role="menu"] [role="menuitem"]';
const CONFIRM = '[role="alertdialog"]';
const CHIP = '[data-reference-id]';
/** The master switch: the one `[role=switch]` of the panel outside the cards. */
export const MASTER = `[role="switch"]:not(${CARD} [role="switch"])`;
const UPLOAD_RPC = 'maseQ';

export interface PanelWait {
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs: number;
}

/** The ligatures of the panel's controls. */
const GLYPH = {
  add: 'post_add',
  edit: 'edit',
  remove: 'delete',
  submit: 'check',
  addRef: 'add_photo_alternate',
  image: 'image',
  character: 'person',
  upload: 'upload_file',
  save: 'save',
  dropRef: 'close',
} as const;

export type RefKind = 'media' | 'entity';

/** One brief panel on an open project page. */
export class BriefPanel {
  constructor(
    readonly page: Page,
    readonly wait: PanelWait,
  ) {}

  get panel(): Locator {
    return this.page.locator(PANEL).first();
  }

  #button(scope: Locator, glyph: string): Locator {
    return withLigature(this.page, scope.locator('button'), glyph).first();
  }

  #drift(what: string, cause?: unknown): UiSelectorDriftError {
    return new UiSelectorDriftError(
      `The brief panel is not the one gflow knows: ${what}. The instruction cards may be partly changed; \`gflow instructions list\` shows them as Flow has them.`,
      cause === undefined ? {} : { cause },
    );
  }

  async #click(target: Locator, what: string): Promise<void> {
    try {
      await target.click({ timeout: Math.min(this.wait.timeoutMs, 10_000) });
    } catch (error) {
      throw this.#drift(`${what} could not be clicked`, error);
    }
  }

  /** The card with this stable id, or the one whose title is exactly this (cards added by gflow). */
  async card(select: { id: string } | { title: string }): Promise<Locator> {
    if ('id' in select)
      return this.page.locator(CARD).and(this.page.locator(`[data-card-id="${cssString(select.id)}"]`));
    const titles = await this.page
      .locator(CARD)
      .evaluateAll((els) => els.map((el) => el.querySelector('.instruction-card-title')?.textContent?.trim() ?? ''));
    const i = titles.findIndex((t) => t.toLowerCase() === select.title.trim().toLowerCase());
    if (i < 0) throw this.#drift(`no card titled ${JSON.stringify(select.title)} after it was added`);
    return this.page.locator(CARD).nth(i);
  }

  /**
   * Lets a change reach Flow: waits out a save in flight, then presses the panel's Save button when
   * it offers one (a panel that keeps changes until saved), and waits that save out too.
   */
  async settle(): Promise<void> {
    await this.#notBusy();
    const save = this.#button(this.panel, GLYPH.save);
    if ((await save.isVisible().catch(() => false)) && (await save.isEnabled().catch(() => false))) {
      await this.#click(save, 'the Save button');
      await this.#notBusy();
    }
  }

  async #notBusy(): Promise<void> {
    try {
      await this.page.locator(BUSY).first().waitFor({ state: 'detached', timeout: this.wait.timeoutMs });
    } catch (error) {
      throw new WireFormatError(
        `The brief panel was still saving after ${Math.round(this.wait.timeoutMs / 1000)} s; the instruction cards may be partly changed.`,
        { cause: error, retryable: false },
      );
    }
  }

  /** Flips a `[role=switch]` and waits for the change to settle. */
  async flip(toggle: Locator, what: string): Promise<void> {
    await this.#click(toggle, what);
    await this.settle();
  }

  /** The brief's master switch: the panel's `[role=switch]` that is not inside a card. */
  masterSwitch(): Locator {
    return this.panel.locator(MASTER).first();
  }

  cardSwitch(card: Locator): Locator {
    return card.locator('[role="switch"]').first();
  }

  /** Removes a card: its `delete` button, and the confirm dialog's `delete` button when one asks. */
  async remove(card: Locator): Promise<void> {
    await this.#click(this.#button(card, GLYPH.remove), "a card's remove button");
    const dialog = this.page.locator(CONFIRM).first();
    const next = await untilDom(
      this.page,
      async () => {
        if (await dialog.isVisible().catch(() => false)) return 'dialog';
        if ((await card.count()) === 0 || (await this.page.locator(BUSY).count()) > 0) return 'done';
        return undefined;
      },
      { timeoutMs: this.wait.timeoutMs, signal: this.wait.signal },
    );
    if (next === undefined) throw this.#drift('removing a card neither asked to confirm nor removed it');
    if (next === 'dialog') await this.#click(this.#button(dialog, GLYPH.remove), "the confirm dialog's remove button");
    await this.settle();
  }

  /** Opens the add form (`post_add`) or a card's edit form (`edit`). */
  async openForm(card: Locator | null): Promise<Locator> {
    const trigger = card === null ? this.#button(this.panel, GLYPH.add) : this.#button(card, GLYPH.edit);
    await this.#click(trigger, card === null ? 'the add-instruction button' : "a card's edit button");
    const form = this.page.locator(EDITOR).first();
    try {
      await form.waitFor({ state: 'visible', timeout: Math.min(this.wait.timeoutMs, 10_000) });
    } catch (error) {
      throw this.#drift('its card form did not open', error);
    }
    return form;
  }

  async fill(form: Locator, fields: { title: string; text: string }): Promise<void> {
    try {
      await form.locator('input[type="text"], input:not([type])').first().fill(fields.title, { timeout: 10_000 });
      await form.locator('textarea').first().fill(fields.text, { timeout: 10_000 });
    } catch (error) {
      throw this.#drift('the card form has no title input and text area', error);
    }
  }

  /** The references the open form holds: `[data-reference-type][data-reference-id]` chips. */
  async formRefs(form: Locator): Promise<Array<{ kind: RefKind; id: string }>> {
    return form.locator(CHIP).evaluateAll((els) =>
      els.map((el) => ({
        kind: (el.getAttribute('data-reference-type') === 'entity' ? 'entity' : 'media') as 'media' | 'entity',
        id: el.getAttribute('data-reference-id') ?? '',
      })),
    );
  }

  async dropRef(form: Locator, id: string): Promise<void> {
    const chip = form.locator(`[data-reference-id="${cssString(id)}"]`).first();
    await this.#click(this.#button(chip, GLYPH.dropRef), "a reference chip's remove button");
    await chip.waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  }

  async #openRefMenu(form: Locator, glyph: string): Promise<void> {
    await this.#click(this.#button(form, GLYPH.addRef), "the form's add-reference button");
    const item = withLigature(this.page, this.page.locator(MENU_ITEM), glyph).first();
    try {
      await item.waitFor({ state: 'visible', timeout: 10_000 });
    } catch (error) {
      throw this.#drift(`the add-reference menu has no \`${glyph}\` entry`, error);
    }
  }

  /**
   * Opens the image or character picker and reads the rows of the page's own asset search reply
   * (`UpteDb`, as the `@` picker's); the picker stays open.
   */
  async openPicker(form: Locator, kind: RefKind): Promise<PickerRow[]> {
    await this.#openRefMenu(form, kind === 'entity' ? GLYPH.character : GLYPH.image);
    const reply = expectRpcReply(this.page, SEARCH_RPC, this.wait);
    await this.#click(
      withLigature(this.page, this.page.locator(MENU_ITEM), kind === 'entity' ? GLYPH.character : GLYPH.image).first(),
      'the add-reference menu entry',
    );
    const rows = parseSearchRows(payloadOf(await reply));
    return rows.filter((r) => (kind === 'entity' ? r.refType === 'entity' : r.refType !== 'entity'));
  }

  /** Picks the row's option in the open picker (by its `/asb/<token>` thumbnail) and waits for its chip. */
  async pick(form: Locator, row: PickerRow): Promise<void> {
    const token = asbToken(row.thumb);
    const options = this.page.locator(OPTION);
    const byThumb =
      token === null ? null : options.filter({ has: this.page.locator(`img[src*="/asb/${cssString(token)}"]`) });
    const option = byThumb ?? options.filter({ hasText: row.name });
    try {
      await option.first().waitFor({ state: 'visible', timeout: 10_000 });
    } catch (error) {
      throw this.#drift(`its reference picker lists no option for ${JSON.stringify(row.name)}`, error);
    }
    if ((await option.count()) !== 1)
      throw this.#drift(`its reference picker lists ${await option.count()} options for ${JSON.stringify(row.name)}`);
    await this.#click(option.first(), 'a reference picker option');
    try {
      await form
        .locator(`[data-reference-id="${cssString(row.id)}"]`)
        .first()
        .waitFor({ timeout: 10_000 });
    } catch (error) {
      throw this.#drift(`picking ${JSON.stringify(row.name)} put no reference chip with its id in the form`, error);
    }
  }

  async closePicker(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page
      .locator(OPTION)
      .first()
      .waitFor({ state: 'detached', timeout: 5_000 })
      .catch(() => undefined);
  }

  /**
   * Uploads a local image through the form's `upload_file` entry and the file chooser, under a
   * run-unique name, and answers the media id the page's own `maseQ` reply names (the chip must
   * then carry it). Flow's one-time rights dialog is never answered for the user.
   */
  async upload(form: Locator, file: string): Promise<string> {
    const bytes = await readUploadable(file);
    const displayName = runUniqueName(file);
    await this.#openRefMenu(form, GLYPH.upload);
    const reply = expectRpcReply(this.page, UPLOAD_RPC, this.wait);
    try {
      const [chooser] = await Promise.all([
        this.page.waitForEvent('filechooser', { timeout: 10_000 }),
        withLigature(this.page, this.page.locator(MENU_ITEM), GLYPH.upload).first().click({ timeout: 5_000 }),
      ]);
      await chooser.setFiles({ name: displayName, mimeType: mimeOf(path.extname(file)), buffer: bytes });
    } catch (error) {
      throw this.#drift('its upload entry opened no file chooser', error);
    }
    const rights = this.page.locator('[role="dialog"]').filter({ has: this.page.locator('button.flow-button-medium') });
    const first = await Promise.race([
      reply.then(() => 'reply' as const),
      rights
        .first()
        .waitFor({ state: 'visible', timeout: this.wait.timeoutMs })
        .then(
          () => 'rights' as const,
          () => 'reply' as const,
        ),
    ]);
    if (first === 'rights')
      throw new MediaUploadRejectedError(
        `Flow asks to confirm the rights to ${displayName} before uploading it; gflow does not affirm that for you.`,
        {
          remediationHint:
            'Open the project on flow.google.com, upload any image by hand and accept the rights dialog once.',
        },
      );
    const mediaId = firstUuid(payloadOf(await reply));
    if (mediaId === null)
      throw new MediaUploadRejectedError(`Flow declined ${displayName}: the ${UPLOAD_RPC} reply carries no media id.`);
    if (mediaId === projectIdOfUrl(this.page.url()))
      throw new WireFormatError(
        `The ${UPLOAD_RPC} reply for ${displayName} names the project id first, not a media id; gflow will not reference it.`,
        { retryable: false },
      );
    try {
      await form
        .locator(`[data-reference-id="${cssString(mediaId)}"]`)
        .first()
        .waitFor({ timeout: 10_000 });
    } catch (error) {
      throw this.#drift(`the uploaded ${displayName} put no reference chip with its media id in the form`, error);
    }
    return mediaId;
  }

  /** Commits the open form (`check`) and waits for the change to settle. */
  async submit(form: Locator): Promise<void> {
    const done = this.#button(form, GLYPH.submit);
    try {
      await done.waitFor({ state: 'visible', timeout: 5_000 });
      if (!(await done.isEnabled())) throw new Error('disabled');
    } catch (error) {
      throw this.#drift('the card form offers no enabled `check` button', error);
    }
    await this.#click(done, "the card form's `check` button");
    try {
      await form.waitFor({ state: 'detached', timeout: 10_000 });
    } catch (error) {
      throw this.#drift('the card form stayed open after `check`', error);
    }
    await this.settle();
  }
}

/** A value for a CSS attribute selector between double quotes. */
function cssString(value: string): string {
  return value.replace(/["\\]/g, '\\$&');
}
