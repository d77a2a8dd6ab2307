import { BadParameterError } from '@gflow/errors';
import { parseJsonOrToml } from './structuredFile.js';

/** One entry of an `instructions apply` file: the seed's shape `{title, text, ref?, enabled?}`. */
export interface InstructionCardEntry {
  readonly title: string;
  readonly text: string;
  readonly ref?: string[];
  readonly enabled?: boolean;
}

const KEYS = new Set(['title', 'text', 'ref', 'enabled']);
const SHAPE =
  'JSON [{"title", "text", "ref"?: [...], "enabled"?: true}] (or {"cards": [...]}), or TOML [[cards]] tables with title, text, ref and enabled';

function bad(message: string, entry?: number): BadParameterError {
  return new BadParameterError(`${message} A cards file is ${SHAPE}.`, {
    extensions: { parameter: 'file', ...(entry === undefined ? {} : { entry }) },
  });
}

/** The list of cards in a parsed document: an array, or its `cards` key. */
function listOf(doc: unknown): unknown[] {
  if (Array.isArray(doc)) return doc;
  if (doc !== null && typeof doc === 'object' && 'cards' in doc) {
    const cards = (doc as { cards: unknown }).cards;
    if (Array.isArray(cards)) return cards;
    throw bad('Its "cards" is not a list.');
  }
  throw bad('It holds no list of cards.');
}

function entryOf(raw: unknown, i: number): InstructionCardEntry {
  const n = i + 1;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw bad(`Card ${n} is not a table/object.`, n);
  const entry = raw as Record<string, unknown>;
  const unknown = Object.keys(entry).filter((k) => !KEYS.has(k));
  if (unknown.length > 0)
    throw bad(
      `Card ${n} has the unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}.`,
      n,
    );
  const { title, text, ref, enabled } = entry;
  if (typeof title !== 'string' || title.trim() === '') throw bad(`Card ${n} has no title (a non-empty string).`, n);
  const name = JSON.stringify(title.trim());
  if (typeof text !== 'string' || text.trim() === '')
    throw bad(`Card ${n} (${name}) has no text (a non-empty string).`, n);
  if (enabled !== undefined && typeof enabled !== 'boolean')
    throw bad(`Card ${n} (${name}): "enabled" must be true or false.`, n);
  let refs: string[] | undefined;
  if (ref !== undefined) {
    const list = typeof ref === 'string' ? [ref] : ref;
    if (!Array.isArray(list) || !list.every((r) => typeof r === 'string' && r.trim() !== ''))
      throw bad(`Card ${n} (${name}): "ref" must be a list of non-empty strings.`, n);
    refs = list.map((r: string) => r.trim());
  }
  return { title, text, ...(refs === undefined ? {} : { ref: refs }), ...(enabled === undefined ? {} : { enabled }) };
}

/**
 * Parses an `instructions apply` file: `.json` as JSON, `.toml` as TOML, any other name as JSON
 * and then as TOML. A file that is neither, or whose cards are not `{title, text, ref?, enabled?}`,
 * is BadParameterError (exit 2, 400) naming the card; nothing is sent anywhere.
 */
export function parseInstructionCardsFile(fileName: string, text: string): InstructionCardEntry[] {
  const parsed = parseJsonOrToml(fileName, text);
  if (!parsed.ok) throw bad(`The cards file is ${parsed.problems}.`);
  return listOf(parsed.doc).map(entryOf);
}
