import fs from 'node:fs';
import path from 'node:path';
import { parseInstructionCardsFile } from '@gflow/core/surfaces';
import { BadParameterError, UsageError } from '@gflow/errors';
import { type PositionalSpec, PROFILE_FLAG, flag } from '../args/flagSpec.js';
import type { ParsedValues } from '../args/parseArgv.js';
import { defineGroup, defineLeaf, type LeafOutput } from '../framework/commandSpec.js';
import type { LeafContext } from '../framework/leafContext.js';
import { runOperation } from '../framework/operationLeaf.js';
import { renderListing } from '../output/table.js';

const PROJECT = flag({
  key: 'project',
  kind: 'string',
  valueHint: 'PROJECT_ID',
  required: true,
  description: 'The Flow project whose brief holds the cards.',
});
const CARD_ID = flag({
  key: 'card_id',
  name: 'id',
  kind: 'string',
  valueHint: 'CARD_ID',
  description: 'Pick the card by its id instead of its title.',
});
const TITLE = { key: 'title', name: 'TITLE', description: 'The card title (case-insensitive).' } as const;

function base(values: ParsedValues): Record<string, unknown> {
  return { project: values['project'], ...(values['profile'] ? { profile: values['profile'] } : {}) };
}

/** Exactly one selector: TITLE or --id. */
function selector(values: ParsedValues): Record<string, unknown> {
  const title = values['title'];
  const id = values['card_id'];
  if ((title === undefined) === (id === undefined))
    throw new UsageError('Name the card by TITLE or --id (exactly one).', { extensions: { parameter: 'title' } });
  return title === undefined ? { card_id: id } : { title };
}

function renderCards(result: unknown): LeafOutput {
  const r = result as {
    cards?: Array<Record<string, unknown>>;
    card?: Record<string, unknown>;
    enabled?: boolean;
    agent_mode_enabled?: boolean;
  };
  const cards = r.cards ?? (r.card ? [r.card] : []);
  const table = renderListing(
    ['ID', 'TITLE', 'ENABLED', 'TEXT'],
    cards.map((c) => [c['id'], c['title'], c['enabled'] ? 'yes' : 'no', c['text']]),
    'No instruction cards in this project yet.',
  );
  const mode = r.agent_mode_enabled ?? r.enabled;
  return { data: result, text: mode === undefined ? table : `Agent instructions: ${mode ? 'on' : 'off'}\n${table}` };
}

function cardLeaf(options: {
  name: string;
  description: string;
  operation: string;
  examples: string[];
  positional?: PositionalSpec;
  flags?: () => ReturnType<typeof flag>[];
  input: (values: ParsedValues, ctx: LeafContext) => Record<string, unknown>;
}) {
  return defineLeaf({
    name: options.name,
    description: options.description,
    operation: options.operation,
    examples: options.examples,
    ...(options.positional ? { positionals: () => [options.positional as PositionalSpec] } : {}),
    flags: () => [PROJECT, ...(options.flags?.() ?? []), PROFILE_FLAG],
    async run(ctx, values) {
      return renderCards(
        await runOperation(ctx, options.operation, () => ({ ...base(values), ...options.input(values, ctx) })),
      );
    },
  });
}

const list = cardLeaf({
  name: 'list',
  description: "List the project's instruction cards (credits-free).",
  operation: 'instructionsList',
  examples: ['gflow instructions list --project 1a2b3c…'],
  input: () => ({}),
});

/** A ref that names a file under the working directory becomes its absolute path (core checks it is an image). */
function resolveRef(ref: string, cwd: string): string {
  const local = path.resolve(cwd, ref);
  return fs.existsSync(local) ? local : ref;
}

const add = cardLeaf({
  name: 'add',
  description:
    'Add an instruction card. --ref: a local image (uploaded), a media id, or a saved character (id or name).',
  operation: 'instructionsAdd',
  examples: [
    'gflow instructions add "House style" --text "Muted colours, 35mm" --project 1a2b3c…',
    'gflow instructions add "Cast" --text "Mira leads" --ref Mira --ref ./mood.png --project 1a2b3c…',
  ],
  positional: TITLE,
  flags: () => [
    flag({ key: 'text', kind: 'string', required: true, description: 'The instruction text.' }),
    flag({
      key: 'refs',
      name: 'ref',
      kind: 'string',
      repeatable: true,
      valueHint: 'REF',
      description: 'An image path (relative to the current directory), a media id, or a character id or name.',
    }),
    flag({ key: 'disabled', kind: 'boolean', description: 'Add the card switched off.' }),
  ],
  input: (values, ctx) => {
    if (values['title'] === undefined) throw new UsageError('Missing argument TITLE.');
    const refs = (values['refs'] as string[] | undefined)?.map((r) => resolveRef(r, ctx.cwd));
    return {
      title: values['title'],
      text: values['text'],
      enabled: values['disabled'] !== true,
      ...(refs ? { refs } : {}),
    };
  },
});

const enable = cardLeaf({
  name: 'enable',
  description: 'Switch one card on.',
  operation: 'instructionsSetEnabled',
  examples: ['gflow instructions enable "House style" --project 1a2b3c…'],
  positional: TITLE,
  flags: () => [CARD_ID],
  input: (v) => ({ enabled: true, ...selector(v) }),
});
const disable = cardLeaf({
  name: 'disable',
  description: 'Switch one card off.',
  operation: 'instructionsSetEnabled',
  examples: ['gflow instructions disable --id c_12 --project 1a2b3c…'],
  positional: TITLE,
  flags: () => [CARD_ID],
  input: (v) => ({ enabled: false, ...selector(v) }),
});
const rm = cardLeaf({
  name: 'rm',
  description: 'Remove one card.',
  operation: 'instructionsRm',
  examples: ['gflow instructions rm "Old rule" --project 1a2b3c…'],
  positional: TITLE,
  flags: () => [CARD_ID],
  input: (v) => selector(v),
});

const toggleMode = cardLeaf({
  name: 'toggle-mode',
  description: "Turn the project's agent instructions on or off as a whole (cards are kept).",
  operation: 'instructionsToggleMode',
  examples: ['gflow instructions toggle-mode --off --project 1a2b3c…'],
  flags: () => [
    flag({ key: 'on', kind: 'boolean', description: 'Turn on.' }),
    flag({ key: 'off', kind: 'boolean', description: 'Turn off.' }),
  ],
  input: (values) => {
    if ((values['on'] === true) === (values['off'] === true))
      throw new UsageError('Pass exactly one of --on or --off.', { extensions: { parameter: 'on' } });
    return { enabled: values['on'] === true };
  },
});

const apply = cardLeaf({
  name: 'apply',
  description:
    'Replace every card with the ones in a JSON or TOML file (destructive): cards whose title matches keep their id, the others are removed or added.',
  operation: 'instructionsApply',
  examples: [
    'gflow instructions apply cards.json --project 1a2b3c…',
    'gflow instructions apply cards.toml --project 1a2b3c…',
  ],
  positional: {
    key: 'file',
    name: 'FILE',
    required: true,
    description:
      'JSON [{"title", "text", "ref"?: [...], "enabled"?: true}] or TOML [[cards]] tables; refs as for add (paths relative to the current directory).',
  },
  input: (values, ctx) => {
    const file = path.resolve(ctx.cwd, String(values['file']));
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      throw new BadParameterError(`The cards file ${String(values['file'])} cannot be read.`, {
        extensions: { parameter: 'file' },
      });
    }
    const cards = parseInstructionCardsFile(file, text).map((card) =>
      card.ref === undefined ? card : { ...card, ref: card.ref.map((r) => resolveRef(r, ctx.cwd)) },
    );
    return { cards };
  },
});

export const instructionsCommand = defineGroup({
  name: 'instructions',
  description: 'Agent-mode instruction cards of a Flow project (credits-free).',
  children: {
    list,
    add,
    enable,
    disable,
    rm,
    'toggle-mode': toggleMode,
    apply,
  },
});
