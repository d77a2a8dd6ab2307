import fs from 'node:fs';
import path from 'node:path';
import type { Brief, BriefCard, BriefChange } from '@gflow/driver';
import { BadParameterError } from '@gflow/errors';
import { z } from 'zod';
import { withProfileBrowser } from './browserContext.js';
import { flowUuid, profileParam } from '../schemas/params.js';
import { MEDIA_UUID, readLocalImage } from '../generation/index.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { defineOperation } from './operation.js';

const NOTE =
  "gflow drives the project's brief panel in the Flow editor the way a person does (it sends no request of its own), then reloads the editor and compares the cards Flow shows with the intended set: any difference fails with wire-format (exit 7, not retryable) carrying both sets, and the cards are left as Flow shows them (no undo, no retry). Refused before anything is clicked: an ambiguous title (configuration, 11), a card or reference the project does not have (reference-not-found, 32). The reply is the card set as Flow shows it after the write. How flow.google.com stores instruction cards was never captured: the panel gflow knows is the simulator's [U]. No credits, no rate limit.";
const REFS =
  'Each ref is classified: a Flow media UUID → an image reference; a local image path (absolute, containing a path separator, ending in .png/.jpg/.jpeg/.webp/.gif, or an existing file; relative paths against the working directory) → checked like the generate tools’ reference_images (a regular file ≤ 20 MB with PNG/JPEG/WebP/GIF magic bytes, nothing else is read), uploaded into the project under a run-unique name and referenced; anything else → a saved character of the project by entity id or display name (case-insensitive; two of that name: 11).';
const project = flowUuid('project');
const selectorFields = {
  title: z.string().trim().min(1).max(200).optional().describe('The card title (case-insensitive).'),
  card_id: z.string().trim().min(1).max(128).optional().describe('The stable card id.'),
};
const refList = z.array(z.string().trim().min(1).max(4096)).max(20);

function selectorOf(input: {
  title?: string | undefined;
  card_id?: string | undefined;
}): { id: string } | { title: string } {
  if (Boolean(input.title) === Boolean(input.card_id))
    throw new BadParameterError('Give exactly one of title or card_id.', { extensions: { parameter: 'title' } });
  return input.card_id ? { id: input.card_id } : { title: input.title as string };
}

const IMAGE_EXTENSION = /\.(png|jpe?g|webp|gif)$/i;

/** Whether a ref names a local file rather than a character. */
function looksLikePath(ref: string, cwd: string): boolean {
  return (
    path.isAbsolute(ref) || /[\\/]/.test(ref) || IMAGE_EXTENSION.test(ref) || fs.existsSync(path.resolve(cwd, ref))
  );
}

/**
 * Classifies `refs` (see REFS): a media UUID → `image_media_ids`; a local image path → `image_files`
 * (canonical, checked as the generate tools check reference_images: a regular file ≤ 20 MB with
 * image magic, else 2 before the browser opens); anything else → `characters` (an entity id or a
 * display name, resolved in the project by the driver).
 */
export function classifyRefs(
  refs: readonly string[] | undefined,
  parameter: string,
  cwd: string = process.cwd(),
): { image_media_ids: string[]; image_files: string[]; characters: string[] } {
  const out = { image_media_ids: [] as string[], image_files: [] as string[], characters: [] as string[] };
  for (const [i, ref] of (refs ?? []).entries()) {
    if (MEDIA_UUID.test(ref)) out.image_media_ids.push(ref.toLowerCase());
    else if (looksLikePath(ref, cwd)) out.image_files.push(readLocalImage(ref, `${parameter}[${i}]`, cwd).path);
    else out.characters.push(ref);
  }
  return out;
}

async function change(
  context: OperationContext,
  input: { project: string; profile?: string | undefined },
  what: BriefChange,
) {
  const { changeBrief } = await import('@gflow/driver');
  return withProfileBrowser(context, input.profile, (browser) =>
    changeBrief(browser, { projectId: input.project, change: what, signal: context.signal }),
  );
}

const sameTitle = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/** What every write answers: the brief as Flow shows it after the write. */
function shown(projectId: string, after: Brief) {
  return { status: 'ok' as const, project_id: projectId, enabled: after.enabled, cards: after.cards };
}

const briefOutput = z.looseObject({ status: z.literal('ok'), project_id: z.string() });

export const instructionsList = defineOperation({
  name: 'instructionsList',
  mcpName: 'gflow_instructions_list',
  title: 'List instruction cards',
  description:
    "Lists a project's persistent Agent-mode instruction cards as the project editor's brief panel shows them: {enabled (the master switch), cards[{id, title, enabled, text, image_media_ids, character_ids}]}. Read-only, no credits. A page without a brief panel gflow knows is ui-selector-drift (23) [U].",
  kind: 'read',
  usesBrowser: true,
  input: z.object({ project, profile: profileParam }),
  output: briefOutput,
  handler: async (input, context) => {
    const { readBrief } = await import('@gflow/driver');
    const brief = await withProfileBrowser(context, input.profile, (browser) =>
      readBrief(browser, { projectId: input.project, signal: context.signal }),
    );
    return shown(input.project, brief);
  },
});

export const instructionsAdd = defineOperation({
  name: 'instructionsAdd',
  mcpName: 'gflow_instructions_add',
  title: 'Add an instruction card',
  description: `Adds one instruction card to the project's brief (a title the brief already has is refused, 11). ${REFS} Returns {enabled, card, cards}. ${NOTE}`,
  kind: 'create',
  usesBrowser: true,
  input: z.object({
    project,
    title: z.string().trim().min(1).max(200),
    text: z.string().trim().min(1).max(10_000),
    refs: refList.optional().describe('Media UUIDs, local image paths, or character ids / names.'),
    enabled: z.boolean().default(true),
    profile: profileParam,
  }),
  output: briefOutput,
  handler: async (input, context) => {
    const written = await change(context, input, {
      op: 'add',
      card: { title: input.title, text: input.text, enabled: input.enabled, ...classifyRefs(input.refs, 'refs') },
    });
    const card = written.after.cards.find((c) => sameTitle(c.title, input.title));
    return { ...shown(input.project, written.after), card };
  },
});

export const instructionsSetEnabled = defineOperation({
  name: 'instructionsSetEnabled',
  mcpName: 'gflow_instructions_set_enabled',
  title: 'Enable or disable an instruction card',
  description: `Switches one card on or off, selected by title (case-insensitive) or card_id (exactly one). Returns {enabled, card, cards}. ${NOTE}`,
  kind: 'mutate',
  usesBrowser: true,
  // Sets a value: switching on a card that is on changes nothing.
  hints: { idempotent: true },
  input: z.object({ project, enabled: z.boolean(), ...selectorFields, profile: profileParam }),
  output: briefOutput,
  handler: async (input, context) => {
    const select = selectorOf(input);
    const written = await change(context, input, { op: 'set_enabled', select, enabled: input.enabled });
    const card = written.after.cards.find((c) =>
      'id' in select ? c.id === select.id : sameTitle(c.title, select.title),
    );
    return { ...shown(input.project, written.after), card };
  },
});

export const instructionsRm = defineOperation({
  name: 'instructionsRm',
  mcpName: 'gflow_instructions_rm',
  title: 'Remove an instruction card',
  description: `Removes one card, selected by title (case-insensitive) or card_id (exactly one), confirming Flow's dialog when it asks. Returns {enabled, card (the removed card, as it was), cards}. ${NOTE}`,
  kind: 'mutate',
  usesBrowser: true,
  input: z.object({ project, ...selectorFields, profile: profileParam }),
  output: briefOutput,
  handler: async (input, context) => {
    const select = selectorOf(input);
    const written = await change(context, input, { op: 'remove', select });
    const card: BriefCard | undefined = written.before.cards.find(
      (c) => !written.after.cards.some((a) => a.id === c.id),
    );
    return { ...shown(input.project, written.after), card };
  },
});

export const instructionsToggleMode = defineOperation({
  name: 'instructionsToggleMode',
  mcpName: 'gflow_instructions_toggle_mode',
  title: 'Switch the brief on or off',
  description: `Sets the brief's master switch on or off; the cards are left as they are. Returns {agent_mode_enabled, enabled, cards}. ${NOTE}`,
  kind: 'mutate',
  usesBrowser: true,
  // Sets a value: switching the brief on when it is on changes nothing.
  hints: { idempotent: true },
  input: z.object({ project, enabled: z.boolean(), profile: profileParam }),
  output: briefOutput,
  handler: async (input, context) => {
    const written = await change(context, input, { op: 'toggle_mode', enabled: input.enabled });
    return { ...shown(input.project, written.after), agent_mode_enabled: written.after.enabled };
  },
});

export const instructionsApply = defineOperation({
  name: 'instructionsApply',
  mcpName: 'gflow_instructions_apply',
  title: 'Replace every instruction card',
  description: `Declarative full sync, destructive: the brief ends with exactly these cards. Live cards whose title is not in the set are removed; a card whose title matches a live one (case-insensitive) keeps that card and its id and is edited to match; the rest are added (Flow shows them in its own order). Titles must be unique. Each card's ref list is classified as in gflow_instructions_add. ${REFS} Returns {enabled, cards}. ${NOTE}`,
  kind: 'mutate',
  usesBrowser: true,
  input: z.object({
    project,
    cards: z
      .array(
        z.object({
          title: z.string().trim().min(1).max(200),
          text: z.string().trim().min(1).max(10_000),
          ref: refList.optional().describe('Media UUIDs, local image paths, or character ids / names.'),
          enabled: z.boolean().default(true),
        }),
      )
      .max(50),
    profile: profileParam,
  }),
  output: briefOutput,
  handler: async (input, context) => {
    const titles = input.cards.map((c) => c.title.toLowerCase());
    const twice = titles.findIndex((t, i) => titles.indexOf(t) !== i);
    if (twice >= 0)
      throw new BadParameterError(
        `Two cards are titled ${JSON.stringify(input.cards[twice]?.title)}; titles must be unique.`,
        {
          extensions: { parameter: `cards[${twice}].title` },
        },
      );
    const cards = input.cards.map((c, i) => ({
      title: c.title,
      text: c.text,
      enabled: c.enabled,
      ...classifyRefs(c.ref, `cards[${i}].ref`),
    }));
    const written = await change(context, input, { op: 'apply', cards });
    return shown(input.project, written.after);
  },
});

export const INSTRUCTION_OPERATIONS = [
  instructionsList,
  instructionsAdd,
  instructionsSetEnabled,
  instructionsRm,
  instructionsToggleMode,
  instructionsApply,
] as const;
