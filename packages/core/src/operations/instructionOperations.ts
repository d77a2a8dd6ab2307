import type { changeBrief } from '@gflow/driver';
import { BadParameterError } from '@gflow/errors';
import { z } from 'zod';
import { withProfileBrowser } from './browserContext.js';
import { flowId, profileParam } from './generationSchemas.js';
import { MEDIA_UUID } from './validateGeneration.js';
import { type Operation, type OperationContext, defineOperation } from './operation.js';

type BriefChange = Parameters<typeof changeBrief>[1]['change'];

const NOTE =
  'Reads the live Agent-mode brief of the project, changes it and writes the whole card set back, so card ids are kept. No credits, no rate limit.';
const project = flowId('project');
const selectorFields = {
  title: z.string().trim().min(1).max(200).optional().describe('The card title (case-insensitive).'),
  card_id: z.string().trim().min(1).max(128).optional().describe('The stable card id.'),
};

function selectorOf(input: {
  title?: string | undefined;
  card_id?: string | undefined;
}): { id: string } | { title: string } {
  if (Boolean(input.title) === Boolean(input.card_id))
    throw new BadParameterError('Give exactly one of title or card_id.', { extensions: { parameter: 'title' } });
  return input.card_id ? { id: input.card_id } : { title: input.title as string };
}

/** Classifies `refs`: a media UUID → image reference; anything else → a character id. */
function classifyRefs(refs: readonly string[] | undefined): { image_media_ids: string[]; character_ids: string[] } {
  const list = refs ?? [];
  return {
    image_media_ids: list.filter((r) => MEDIA_UUID.test(r)),
    character_ids: list.filter((r) => !MEDIA_UUID.test(r)),
  };
}

async function change(context: OperationContext, input: { project: string; profile: string }, what: BriefChange) {
  const { changeBrief } = await import('@gflow/driver');
  return withProfileBrowser(context, input.profile, (browser) =>
    changeBrief(browser, { projectId: input.project, change: what, signal: context.signal }),
  );
}

const briefOutput = z.looseObject({ status: z.literal('ok'), project_id: z.string() });

export const instructionsList = defineOperation({
  name: 'instructionsList',
  mcpName: 'gflow_instructions_list',
  title: 'List instruction cards',
  description: "Lists a project's persistent Agent-mode instruction cards (the live brief; credits-free).",
  kind: 'read',
  usesBrowser: true,
  input: z.object({ project, profile: profileParam }),
  output: briefOutput,
  handler: async (input, context) => {
    const { readBrief } = await import('@gflow/driver');
    const brief = await withProfileBrowser(context, input.profile, (browser) =>
      readBrief(browser, { projectId: input.project, signal: context.signal }),
    );
    return { status: 'ok' as const, project_id: input.project, enabled: brief.enabled, cards: brief.cards };
  },
});

export const instructionsAdd = defineOperation({
  name: 'instructionsAdd',
  mcpName: 'gflow_instructions_add',
  title: 'Add an instruction card',
  description: `Adds a persistent instruction card. Each ref is classified: a media UUID is an image reference, anything else a character id. ${NOTE}`,
  kind: 'mutate',
  usesBrowser: true,
  input: z.object({
    project,
    title: z.string().trim().min(1).max(200),
    text: z.string().trim().min(1).max(10_000),
    refs: z.array(z.string().trim().min(1)).max(20).optional(),
    enabled: z.boolean().default(true),
    profile: profileParam,
  }),
  output: briefOutput,
  handler: async (input, context) => {
    const written = await change(context, input, {
      op: 'add',
      card: { title: input.title, text: input.text, enabled: input.enabled, ...classifyRefs(input.refs) },
    });
    const card = written.after.cards.find((c) => c.title.toLowerCase() === input.title.toLowerCase());
    return { status: 'ok' as const, project_id: input.project, enabled: written.after.enabled, card };
  },
});

export const instructionsSetEnabled = defineOperation({
  name: 'instructionsSetEnabled',
  mcpName: 'gflow_instructions_set_enabled',
  title: 'Enable or disable an instruction card',
  description: `Enables or disables one card selected by title or card_id. ${NOTE}`,
  kind: 'mutate',
  usesBrowser: true,
  input: z.object({ project, enabled: z.boolean(), ...selectorFields, profile: profileParam }),
  output: briefOutput,
  handler: async (input, context) => {
    const select = selectorOf(input);
    const written = await change(context, input, { op: 'set_enabled', select, enabled: input.enabled });
    const card = written.after.cards.find((c) =>
      'id' in select ? c.id === select.id : c.title.toLowerCase() === select.title.toLowerCase(),
    );
    return { status: 'ok' as const, project_id: input.project, enabled: written.after.enabled, card };
  },
});

export const instructionsRm = defineOperation({
  name: 'instructionsRm',
  mcpName: 'gflow_instructions_rm',
  title: 'Remove an instruction card',
  description: `Removes one card selected by title or card_id; returns the removed card. ${NOTE}`,
  kind: 'mutate',
  usesBrowser: true,
  input: z.object({ project, ...selectorFields, profile: profileParam }),
  output: briefOutput,
  handler: async (input, context) => {
    const select = selectorOf(input);
    const written = await change(context, input, { op: 'remove', select });
    const card = written.before.cards.find(
      (c) => !written.after.cards.some((a) => a.id === c.id && a.title === c.title),
    );
    return { status: 'ok' as const, project_id: input.project, enabled: written.after.enabled, card };
  },
});

export const instructionsToggleMode = defineOperation({
  name: 'instructionsToggleMode',
  mcpName: 'gflow_instructions_toggle_mode',
  title: 'Switch the brief on or off',
  description: `Flips the brief-level master switch; cards are left untouched. ${NOTE}`,
  kind: 'mutate',
  usesBrowser: true,
  input: z.object({ project, enabled: z.boolean(), profile: profileParam }),
  output: briefOutput,
  handler: async (input, context) => {
    const written = await change(context, input, { op: 'toggle_mode', enabled: input.enabled });
    return { status: 'ok' as const, project_id: input.project, agent_mode_enabled: written.after.enabled };
  },
});

export const instructionsApply = defineOperation({
  name: 'instructionsApply',
  mcpName: 'gflow_instructions_apply',
  title: 'Replace every instruction card',
  description: `Declarative full sync: REPLACES all cards with the given set (destructive). A card whose title matches a live one keeps its id. ${NOTE}`,
  kind: 'mutate',
  usesBrowser: true,
  input: z.object({
    project,
    cards: z
      .array(
        z.object({
          title: z.string().trim().min(1).max(200),
          text: z.string().trim().min(1).max(10_000),
          ref: z.array(z.string().trim().min(1)).max(20).optional(),
          enabled: z.boolean().default(true),
        }),
      )
      .max(50),
    profile: profileParam,
  }),
  output: briefOutput,
  handler: async (input, context) => {
    const cards = input.cards.map((c) => ({
      title: c.title,
      text: c.text,
      enabled: c.enabled,
      ...classifyRefs(c.ref),
    }));
    const written = await change(context, input, { op: 'apply', cards });
    return {
      status: 'ok' as const,
      project_id: input.project,
      enabled: written.after.enabled,
      cards: written.after.cards,
    };
  },
});

export const INSTRUCTION_OPERATIONS = [
  instructionsList,
  instructionsAdd,
  instructionsSetEnabled,
  instructionsRm,
  instructionsToggleMode,
  instructionsApply,
] as readonly Operation[];
