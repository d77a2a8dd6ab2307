/** One argument quoted for a POSIX shell: bare when it is plainly safe, else in single quotes. */
export function shellArg(value: string): string {
  if (/^[\w@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A command line from its words, each quoted for a POSIX shell. */
export function commandLine(words: readonly string[]): string {
  return words.map(shellArg).join(' ');
}

/** What a generation task stored as its input (GenerateImageInput / GenerateVideoInput / ExtendVideoInput), as far as a command line needs it. */
interface StoredInput {
  readonly prompt?: unknown;
  readonly mode?: unknown;
  readonly model?: unknown;
  readonly aspect?: unknown;
  readonly count?: unknown;
  readonly duration?: unknown;
  readonly resolution?: unknown;
  readonly initial_frame?: unknown;
  readonly end_frame?: unknown;
  readonly reference_images?: unknown;
  readonly reference_entities?: unknown;
  readonly reference_entity_names?: unknown;
  readonly profile?: unknown;
  readonly project?: unknown;
  readonly tools?: unknown;
  /** An extension's source clip (ExtendVideoInput). */
  readonly media_id?: unknown;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item !== '') : [];

/**
 * The CLI command that makes the item again (a new generation with the same prompt, model and
 * settings; it spends like the first one did), from the input its task recorded. Undefined when
 * the input is not a generation's.
 */
export function recreateCommand(kind: 'image' | 'video', stored: unknown, profile: string): string | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined;
  const input = stored as StoredInput;
  const prompt = text(input.prompt);
  if (prompt === undefined) return undefined;
  const words: string[] = ['gflow'];
  if (kind === 'image') {
    const refs = texts(input.reference_images);
    words.push('image', refs.length > 0 ? 'i2i' : 't2i', prompt);
    for (const ref of refs) words.push('--ref', ref);
  } else if (text(input.media_id)) {
    // An extension continues its source clip: made again, it extends that clip again.
    words.push('video', 'extend', text(input.media_id) as string, prompt);
  } else {
    const mode = text(input.mode)?.toLowerCase() ?? 't2v';
    words.push('video', ['t2v', 'i2v', 'r2v'].includes(mode) ? mode : 't2v', prompt);
    const initial = text(input.initial_frame);
    if (initial) words.push('--initial-frame', initial);
    const end = text(input.end_frame);
    if (end) words.push('--end-frame', end);
    for (const ref of texts(input.reference_images)) words.push('--ref', ref);
    if (typeof input.duration === 'number') words.push('--duration', String(input.duration));
    const resolution = text(input.resolution);
    if (resolution) words.push('--resolution', resolution);
  }
  const model = text(input.model);
  if (model) words.push('--model', model);
  const aspect = text(input.aspect);
  if (aspect) words.push('--aspect', aspect);
  if (typeof input.count === 'number' && input.count > 1) words.push('-n', String(input.count));
  for (const entity of texts(input.reference_entities)) words.push('--reference-entity', entity);
  for (const name of texts(input.reference_entity_names)) words.push('--reference-entity-name', name);
  for (const tool of Array.isArray(input.tools) ? input.tools : []) {
    const spec = toolSpec(tool);
    if (spec) words.push('-t', spec);
  }
  const project = text(input.project);
  if (project) words.push('--project', project);
  words.push('--profile', profile);
  return commandLine(words);
}

/** A stored prompt tool `{name, options}` as `-t NAME[:k=v[,k=v…]]`. */
function toolSpec(tool: unknown): string | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  const { name, options } = tool as { name?: unknown; options?: unknown };
  if (typeof name !== 'string' || name === '') return undefined;
  const pairs =
    typeof options === 'object' && options !== null
      ? Object.entries(options as Record<string, unknown>).map(([key, value]) => `${key}=${String(value)}`)
      : [];
  return pairs.length > 0 ? `${name}:${pairs.join(',')}` : name;
}
