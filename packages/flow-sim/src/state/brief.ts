import type { SeededRandom } from './random.js';

/**
 * A project's Agent-mode brief [U]: labs `flow.projectInitialData` carries `agentInfo.projectBrief`
 * and agent settings are written with `PATCH /v1/projects/{pid}/agentInfo` (flow-wire §3b/§5);
 * how flow.google.com shows or stores it was not captured. The simulator keeps a master switch and
 * cards with stable ids, each with a title, a text, an on/off switch and references (image media
 * ids, character entity ids).
 */
export interface InstructionCard {
  id: string;
  title: string;
  text: string;
  enabled: boolean;
  imageMediaIds: string[];
  characterIds: string[];
}

export interface ProjectBrief {
  enabled: boolean;
  cards: InstructionCard[];
}

/** A card as the scenario seeds it. */
export interface InstructionCardInit {
  title: string;
  text: string;
  enabled?: boolean;
  imageMediaIds?: string[];
  characterIds?: string[];
}

/** How a reference is shown beside a card: its kind, name and `/asb/<token>` thumbnail. */
export interface BriefReference {
  id: string;
  type: 'media' | 'entity';
  name: string;
  thumb: string | null;
}

export function emptyBrief(): ProjectBrief {
  return { enabled: true, cards: [] };
}

/** A stable card id (`c_` and 12 hex digits; the real id format is not known). */
export function newCardId(random: SeededRandom): string {
  return `c_${random.hex(6)}`;
}

export function makeCard(random: SeededRandom, init: InstructionCardInit): InstructionCard {
  return {
    id: newCardId(random),
    title: init.title,
    text: init.text,
    enabled: init.enabled ?? true,
    imageMediaIds: [...(init.imageMediaIds ?? [])],
    characterIds: [...(init.characterIds ?? [])],
  };
}

/** A title for a card seeded from a bare text (`addInstruction`): "Instruction N", the first N free. */
export function seedTitle(brief: ProjectBrief): string {
  const taken = new Set(brief.cards.map((c) => c.title.toLowerCase()));
  let n = brief.cards.length + 1;
  while (taken.has(`instruction ${n}`)) n += 1;
  return `Instruction ${n}`;
}

export function copyBrief(brief: ProjectBrief): ProjectBrief {
  return {
    enabled: brief.enabled,
    cards: brief.cards.map((c) => ({ ...c, imageMediaIds: [...c.imageMediaIds], characterIds: [...c.characterIds] })),
  };
}

/**
 * Migrates a project saved before briefs existed: its `instructions: string[]` become cards
 * ("Instruction N"), once. Returns the project's brief.
 */
export function migrateBrief(random: SeededRandom, project: { brief?: ProjectBrief }): ProjectBrief {
  const legacy = project as { brief?: ProjectBrief; instructions?: unknown };
  if (legacy.brief === undefined) {
    const brief = emptyBrief();
    if (Array.isArray(legacy.instructions))
      for (const text of legacy.instructions)
        if (typeof text === 'string') brief.cards.push(makeCard(random, { title: seedTitle(brief), text }));
    legacy.brief = brief;
  }
  delete legacy.instructions;
  return legacy.brief;
}
