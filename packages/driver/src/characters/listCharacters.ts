import type { BrowserContext, Page } from 'playwright-core';
import { projectUrl } from '../flow/hosts.js';
import { ASB_TOKEN } from '../composer/anchors.js';
import { assertOnFlowApp } from '../projects/flowPage.js';
import { type RpcReply, expectRpcReply, payloadOf } from '../projects/rpcReply.js';
import { type FlowCharacter, type PickerRow, parseSearchRows, toCharacters } from './characterRows.js';
import { CHARACTERS_TAB_INDEX, PICKER_TAB, abandonMention, focusEditor, openMentionPicker } from './mentionPicker.js';
import { withScratchPage } from '../session/scratchPage.js';
import { type CharacterSelector, selectCharacter } from './selectCharacter.js';

export interface ListCharactersOptions {
  readonly projectId: string;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/**
 * Lists a project's saved characters from what its editor loads (seed gflow_character_list): the
 * `@` picker's Characters tab and Flow's own asset search reply (`UpteDb`), nothing sent by gflow.
 * Read-only; the draft is cleared afterwards. Where the page does not behave like this (no classic
 * composer, no reply, another reply shape) it raises WireFormatError (7), as the original did on
 * flow.google.com (#875). Voice, personality and workflow ids are not in that reply (null / []).
 */
export async function listCharacters(
  context: BrowserContext,
  options: ListCharactersOptions,
): Promise<FlowCharacter[]> {
  const wait = { signal: options.signal, timeoutMs: options.timeoutMs ?? 30_000 };
  // A page of its own, photographed if the read fails (the incident bundle).
  return withScratchPage(
    context,
    projectUrl(options.projectId),
    { ...wait, what: "listing the project's characters" },
    async (page) => {
      await focusEditor(page, wait, "the project's characters");
      const first = expectRpcReply(page, 'UpteDb', wait);
      await openMentionPicker(page);
      let rows: PickerRow[] = parseSearchRows(payloadOf(await first));
      const tab = page.locator(PICKER_TAB).nth(CHARACTERS_TAB_INDEX);
      if (await tab.isVisible().catch(() => false)) {
        const second: Promise<RpcReply> = expectRpcReply(page, 'UpteDb', wait);
        await tab.click({ timeout: 5_000 });
        rows = [...parseSearchRows(payloadOf(await second)), ...rows];
      }
      assertOnFlowApp(page);
      const characters = toCharacters(rows, options.projectId, await gridTokens(page));
      await abandonMention(page);
      return characters;
    },
  );
}

/** Shows one character by id or exact name (exactly one selector; an ambiguous name is refused). */
export async function showCharacter(
  context: BrowserContext,
  options: ListCharactersOptions & { selector: CharacterSelector },
): Promise<FlowCharacter> {
  return selectCharacter(await listCharacters(context, options), options.selector);
}

/** `/asb/<token>` → media id, from the grid's `img[data-media-id]` tiles (flow-wire §4). */
async function gridTokens(page: Page): Promise<Map<string, string>> {
  const pairs = await page
    .locator('img[data-media-id]')
    .evaluateAll((imgs) =>
      imgs.map((img) => [img.getAttribute('src') ?? '', img.getAttribute('data-media-id') ?? ''] as const),
    )
    .catch(() => [] as (readonly [string, string])[]);
  const map = new Map<string, string>();
  for (const [src, id] of pairs) {
    const m = ASB_TOKEN.exec(src);
    if (m?.[1] !== undefined && id !== '') map.set(m[1], id);
  }
  return map;
}
