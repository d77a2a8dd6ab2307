import { ConfigurationError } from '@gflow/errors';
import type { OpContext } from '../session/opContext.js';
import { untilDom } from '../util/domWait.js';
import { A } from './anchors.js';
import { driftError } from './drift.js';
import { type Chip, OPTION, addMention, bindOptions, mentionQuery, nameOfKey, optionName } from './mentions.js';
import { caretToEnd, clearPrompt, closeStrayPicker, editor } from './promptText.js';

export interface NamedCharacter {
  readonly displayName: string;
  readonly entityId: string;
}

/** Where an `@` mention may start: an `@` at the prompt's start or after whitespace, before a name. */
export function mentionStarts(prompt: string): number[] {
  return [...prompt.matchAll(/(^|\s)@(?=[^\s@])/gu)].map((m) => m.index + (m[1]?.length ?? 0));
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * The longest of `names` that `text` starts with (letter case aside), ending where a word ends:
 * `@Mira's` names Mira, `@Miranda` does not.
 */
export function longestNameAt(text: string, names: Iterable<string>): string | undefined {
  const lower = text.toLowerCase();
  let best: string | undefined;
  for (const name of names) {
    const n = name.trim();
    if (n === '' || !lower.startsWith(n.toLowerCase())) continue;
    if (WORD_CHAR.test(text.charAt(n.length))) continue;
    if (best === undefined || n.length > best.length) best = n;
  }
  return best;
}

/** Types text at the end of the prompt as text (insertText); an `@` in it may open the picker, which is closed again. */
async function insertPlain(ctx: OpContext, text: string): Promise<void> {
  if (text === '') return;
  await caretToEnd(ctx);
  await ctx.page.keyboard.insertText(text);
  if (text.includes('@')) await closeStrayPicker(ctx);
}

const sameName = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The saved characters the picker lists under the name that `rest` (the prompt after an `@`)
 * starts with: each option whose name could be it is bound once, its chip read (a character chip
 * carries its entity id, flow-captures.md §1) and removed again. One search: characters are not
 * freshly indexed uploads, and a word that names none is plain text.
 */
async function charactersNamedAt(ctx: OpContext, rest: string): Promise<{ name: string; ids: string[] } | undefined> {
  // The name's first word without what follows it in the sentence (`@Mira's` searches Mira).
  const query = /^[\p{L}\p{N}_-]+/u.exec(rest)?.[0] ?? mentionQuery(rest);
  const found: Array<{ name: string; id: string }> = [];
  let longest: string | undefined;
  await bindOptions(ctx, {
    query,
    lead: '',
    label: `@${query}`,
    named: ctx.page.locator(OPTION),
    rank: (keys) => {
      const names = keys.map((k) => longestNameAt(rest, new Set([nameOfKey(k), optionName(nameOfKey(k))])));
      longest = names.reduce<string | undefined>(
        (a, n) => (n !== undefined && n.length > (a?.length ?? 0) ? n : a),
        undefined,
      );
      return keys.filter((_, i) => longest !== undefined && names[i] !== undefined && sameName(names[i], longest));
    },
    searches: 1,
    needsAnswer: true,
    accept: (added: readonly Chip[]) => {
      const chip = added.length === 1 ? added[0] : undefined;
      if (chip?.type === 'entity' && chip.id && longest !== undefined && sameName(chip.label, longest))
        if (!found.some((f) => f.id === chip.id)) found.push({ name: chip.label.trim(), id: chip.id });
      return false;
    },
  });
  const first = found[0];
  return first === undefined ? undefined : { name: first.name, ids: found.map((f) => f.id) };
}

/**
 * Types the prompt with its `@Name` mentions of saved characters attached in place through the `@`
 * picker (#723 in seed 000), and returns the characters so bound. A name among `characters` (the
 * id and name routes) is bound by its id and not attached again; another is looked up in the
 * picker: one character of that name is bound, two or more are refused (exit 11, naming their ids:
 * pass the one meant by id), none leaves the word as text — no media is attached for it.
 */
export async function typePromptWithMentions(
  ctx: OpContext,
  prompt: string,
  characters: readonly NamedCharacter[],
): Promise<NamedCharacter[]> {
  ctx.check('typing the prompt');
  await clearPrompt(ctx);
  const bound: NamedCharacter[] = [];
  let pos = 0;
  for (const at of mentionStarts(prompt)) {
    if (at < pos) continue;
    await insertPlain(ctx, prompt.slice(pos, at));
    pos = at;
    const rest = prompt.slice(at + 1);
    const known = longestNameAt(
      rest,
      characters.map((c) => c.displayName),
    );
    const passed = known === undefined ? [] : characters.filter((c) => sameName(c.displayName, known));
    const looked = passed.length > 0 ? undefined : await charactersNamedAt(ctx, rest);
    const name = known ?? looked?.name;
    const ids = passed.length > 0 ? [...new Set(passed.map((c) => c.entityId))] : (looked?.ids ?? []);
    if (name === undefined || ids.length === 0) continue;
    if (ids.length > 1) {
      throw new ConfigurationError(
        `@${name} in the prompt names ${ids.length} saved characters (${ids.join(', ')}): Flow does not keep names unique. Nothing was submitted.`,
        {
          remediationHint:
            'Pass the character meant by its id and name (reference_entities + reference_entity_names; on the CLI --reference-entity + --reference-entity-name) and leave the @ out of the prompt.',
          extensions: { ambiguous_name: name, entity_ids: ids },
        },
      );
    }
    const entityId = ids[0] as string;
    await addMention(ctx, { displayName: name, id: entityId, referenceType: 'entity' }, '');
    bound.push({ displayName: name, entityId });
    pos = at + 1 + name.length;
    // The picker puts a space after the chip: the prompt's own space after the name is not typed twice.
    if (/\s/u.test(prompt.charAt(pos))) pos += 1;
  }
  await insertPlain(ctx, prompt.slice(pos));
  const tail = prompt.slice(pos).replace(/\s+/gu, ' ').trim();
  const shown = await untilDom(
    ctx.page,
    async () => {
      const text = (
        (await editor(ctx)
          .innerText()
          .catch(() => '')) ?? ''
      ).replace(/\s+/gu, ' ');
      return text.includes(tail) ? true : undefined;
    },
    { timeoutMs: 2_000, signal: ctx.signal },
  );
  if (shown !== true)
    throw await driftError(ctx.page, 'The prompt did not appear in the editor after typing', A.editor);
  return bound;
}

/** The characters to attach at the end of the prompt: those the prompt did not already mention (by id). */
export function charactersLeft(
  characters: readonly NamedCharacter[],
  mentioned: readonly NamedCharacter[],
): NamedCharacter[] {
  return characters.filter((c) => !mentioned.some((m) => m.entityId === c.entityId));
}
