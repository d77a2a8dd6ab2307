import { BadParameterError } from '@gflow/errors';
import { MAX_BATCH_ITEMS } from './runLimits.js';
import { parseJsonOrToml } from './structuredFile.js';

/** One prompt of a `gflow run --config` file (the original's shape). */
export interface RunConfigPrompt {
  readonly text: string;
  readonly aspect_ratio?: string;
  readonly model?: string;
  readonly count?: number;
  /** A file name for this prompt's image (relative to --output-dir, else the working directory). */
  readonly output_filename?: string;
}

const KEYS = new Set(['text', 'aspect_ratio', 'model', 'count', 'output_filename']);
const SHAPE =
  'A run config is JSON {"prompts": [{"text", "aspect_ratio"?, "model"?, "count"?, "output_filename"?}]} or TOML [[prompts]] tables with the same keys';

function bad(message: string, prompt?: number): BadParameterError {
  return new BadParameterError(`${message} ${SHAPE}.`, {
    extensions: { parameter: 'config', ...(prompt === undefined ? {} : { prompt }) },
  });
}

function promptOf(raw: unknown, n: number): RunConfigPrompt {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw bad(`Prompt ${n} is not a table/object.`, n);
  const entry = raw as Record<string, unknown>;
  const unknown = Object.keys(entry).filter((k) => !KEYS.has(k));
  if (unknown.length > 0)
    throw bad(`Prompt ${n} has the unknown key(s) ${unknown.map((k) => `"${k}"`).join(', ')}.`, n);
  const { text, aspect_ratio: aspect, model, count, output_filename: file } = entry;
  if (typeof text !== 'string' || text.trim() === '') throw bad(`Prompt ${n} has no text (a non-empty string).`, n);
  if (aspect !== undefined && typeof aspect !== 'string') throw bad(`Prompt ${n}: "aspect_ratio" must be a string.`, n);
  if (model !== undefined && typeof model !== 'string') throw bad(`Prompt ${n}: "model" must be a string.`, n);
  if (count !== undefined && (typeof count !== 'number' || !Number.isInteger(count)))
    throw bad(`Prompt ${n}: "count" must be a whole number.`, n);
  if (file !== undefined && (typeof file !== 'string' || file.trim() === '' || /[/\\]$/.test(file)))
    throw bad(`Prompt ${n}: "output_filename" must name a file.`, n);
  return {
    text: text.trim(),
    ...(aspect === undefined ? {} : { aspect_ratio: aspect }),
    ...(model === undefined ? {} : { model }),
    ...(count === undefined ? {} : { count }),
    ...(file === undefined ? {} : { output_filename: file }),
  };
}

/** Parses a `gflow run --config` file; a bad one is BadParameterError (exit 2, 400) naming the prompt, nothing spent. */
export function parseRunConfig(fileName: string, text: string): RunConfigPrompt[] {
  const parsed = parseJsonOrToml(fileName, text);
  if (!parsed.ok) throw bad(`The config is ${parsed.problems}.`);
  const doc = parsed.doc;
  const list = Array.isArray(doc)
    ? doc
    : doc !== null && typeof doc === 'object' && Array.isArray((doc as { prompts?: unknown }).prompts)
      ? (doc as { prompts: unknown[] }).prompts
      : null;
  if (list === null) throw bad('It holds no "prompts" list.');
  if (list.length === 0 || list.length > MAX_BATCH_ITEMS)
    throw bad(`It holds ${list.length} prompts; a run takes 1–${MAX_BATCH_ITEMS}.`);
  return list.map((raw, i) => promptOf(raw, i + 1));
}

/** `PROMPT` lines of a prompts file (`--prompts-file`, `--stdin`): one per line; blank lines and `#` comments skipped. */
export function parsePromptLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
