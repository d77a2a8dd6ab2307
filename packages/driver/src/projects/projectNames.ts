import type { BrowserContext, Page } from 'playwright-core';
import { BadParameterError, ReferenceNotFoundError } from '@gflow/errors';
import { A, ASB_TOKEN, textsWithoutIcons } from '../composer/anchors.js';
import { optionName } from '../composer/mentions.js';
import { EDITOR, abandonMention, focusEditor, openMentionPicker } from '../characters/mentionPicker.js';
import { projectIdOfUrl, projectUrl } from '../flow/hosts.js';
import { withScratchPage } from '../session/scratchPage.js';
import { untilSettled } from '../util/domWait.js';
import { isUuid } from '../wire/uuid.js';
import { assertOnFlowApp, waitForAnchor } from './flowPage.js';
import { type PageFacts, readPageFacts } from './pageFacts.js';

/** One finished media a project's grid shows, and the name Flow lists it by. */
export interface NamedMedia {
  readonly media_id: string;
  /** Null when neither its tile nor the `@` picker names it. */
  readonly name: string | null;
  /** Where the name was read: the tile itself, or the picker option with the tile's thumbnail. */
  readonly source: 'tile' | 'picker' | null;
}

/** What a project's page says of its title and its media's names (`data sync`). */
export interface ProjectNames {
  readonly project_id: string;
  /** The header's title, or null when the page shows none. */
  readonly title: string | null;
  readonly media: readonly NamedMedia[];
}

export interface ReadProjectNamesOptions {
  readonly projectId: string;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** How long the `@` picker's list may take to settle once open (its search reply is ~0.3 s, flow-wire §3). */
const PICKER_MS = 10_000;
/** A picker list unchanged this long has settled (mentions.ts LIST_QUIET_MS, with room for the whole list). */
const PICKER_QUIET_MS = 300;

/**
 * Reads what a project's page shows of names, spending nothing: the title in the editor's header
 * and, for each finished media of the grid, the name its tile shows; a tile that shows none is
 * named through the `@` picker — opened on an empty query, it lists the library's assets by name
 * beside the same `/asb/` thumbnail as their tiles (flow-wire §4) — then closed with the draft
 * cleared. A page that opens another project, or none, is ReferenceNotFoundError.
 */
export async function readProjectNames(
  context: BrowserContext,
  options: ReadProjectNamesOptions,
): Promise<ProjectNames> {
  if (!isUuid(options.projectId)) throw new BadParameterError('projectId must be a Flow project id (a UUID).');
  const wait = { signal: options.signal, timeoutMs: options.timeoutMs ?? 30_000 };
  const what = `reading the names in project ${options.projectId}`;
  return withScratchPage(context, projectUrl(options.projectId), { ...wait, what }, async (page) => {
    const ready = page.locator(`${A.promptBox}, flow-asset-grid`);
    await waitForAnchor(page, ready, wait);
    assertOnFlowApp(page);
    if (projectIdOfUrl(page.url()) !== options.projectId)
      throw new ReferenceNotFoundError(`Flow opened no project ${options.projectId} (is it this profile's?).`, {
        extensions: { flow_project_id: options.projectId },
      });
    const facts = await readPageFacts(page);
    const picked = facts.tiles.some((t) => t.name === null && t.token !== null)
      ? await pickerNames(page, wait)
      : new Map<string, string>();
    return { project_id: options.projectId, title: facts.title, media: namedMedia(facts, picked) };
  });
}

/** Each tile's name: its own, else the picker option's with the same thumbnail token. */
export function namedMedia(facts: PageFacts, picked: ReadonlyMap<string, string>): NamedMedia[] {
  const seen = new Set<string>();
  return facts.tiles.flatMap((tile): NamedMedia[] => {
    if (seen.has(tile.mediaId)) return [];
    seen.add(tile.mediaId);
    if (tile.name !== null) return [{ media_id: tile.mediaId, name: tile.name, source: 'tile' }];
    const name = tile.token === null ? undefined : picked.get(tile.token);
    return [{ media_id: tile.mediaId, name: name ?? null, source: name === undefined ? null : 'picker' }];
  });
}

/** The `@` picker's options on an empty query: thumbnail token → the name the option gives. */
async function pickerNames(
  page: Page,
  wait: { signal?: AbortSignal | undefined; timeoutMs: number },
): Promise<Map<string, string>> {
  if ((await page.locator(EDITOR).count()) === 0) return new Map();
  await focusEditor(page, wait, 'the names in the @ picker');
  await openMentionPicker(page);
  try {
    const options = page.locator(`${A.overlayPane} ${A.assetOption}`);
    const read = async (): Promise<Array<[string, string]> | undefined> => {
      const names = await textsWithoutIcons(options).catch(() => [] as string[]);
      const thumbs = await options
        .evaluateAll((els) => els.map((el) => el.querySelector('img')?.getAttribute('src') ?? ''))
        .catch(() => [] as string[]);
      const pairs = names.flatMap((text, i): Array<[string, string]> => {
        const token = ASB_TOKEN.exec(thumbs[i] ?? '')?.[1];
        return token === undefined || text === '' ? [] : [[token, optionName(text)]];
      });
      return pairs.length > 0 ? pairs : undefined;
    };
    const settled = await untilSettled(page, read, {
      timeoutMs: PICKER_MS,
      quietMs: PICKER_QUIET_MS,
      signal: wait.signal,
    });
    return unambiguous(settled ?? []);
  } finally {
    await abandonMention(page);
  }
}

/**
 * Token → name for the tokens every option showing them names alike. Two names behind one
 * thumbnail (a saved character whose picture is a media of the grid) name nothing: a guess would
 * give a media a character's name.
 */
export function unambiguous(pairs: ReadonlyArray<readonly [string, string]>): Map<string, string> {
  const names = new Map<string, string | null>();
  for (const [token, name] of pairs) {
    const known = names.get(token);
    names.set(token, known === undefined || known === name ? name : null);
  }
  return new Map([...names].flatMap(([token, name]) => (name === null ? [] : [[token, name] as const])));
}
