import path from 'node:path';
import { BadParameterError } from '@gflow/errors';
import type { YamlFileKind } from '../files/boundedYaml.js';
import { loadOptionalPeer } from '../runtime/optionalPeer.js';
import type { Storyboard } from './storyboard.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const STORYBOARD_FILE: YamlFileKind = {
  maxBytes: 256 * 1024,
  maxDepth: 16,
  maxAliasCount: 100,
  what: 'a storyboard',
  largeHint: 'a movie of 20 scenes fits in a few KiB',
};

/**
 * A storyboard from a YAML (or JSON) file's text, within bounds (size, depth, aliases, tags), checked
 * against the schema: every problem names its line or its field (`scenes[2].start`), exit 2. The
 * YAML parser is an optional peer of @gflow/core: a program that passes storyboards as objects
 * (`makeMovie`) never loads it.
 */
export async function parseStoryboardText(text: string): Promise<Storyboard> {
  const [{ parseBoundedYaml }, { parseStoryboard }] = await Promise.all([
    loadOptionalPeer('yaml', 'Reading a storyboard file', () => import('../files/boundedYaml.js')),
    import('./storyboard.js'),
  ]);
  const parsed = parseBoundedYaml(text, STORYBOARD_FILE);
  if (parsed.ok) return parseStoryboard(parsed.root);
  const first = parsed.problems[0];
  throw new BadParameterError(`storyboard line ${first?.line ?? 1}: ${first?.reason ?? 'unreadable'}`, {
    extensions: { parameter: 'storyboard' },
  });
}

/**
 * A storyboard file's text read into a checked storyboard, with each `start` image file taken
 * relative to the file's own folder. Asynchronous because the storyboard's schema and the YAML
 * parser load here, not with every command.
 */
export async function readStoryboardFile(file: string, text: string): Promise<Storyboard> {
  const board = await parseStoryboardText(text);
  const dir = path.dirname(path.resolve(file));
  const scenes = board.scenes.map((scene) =>
    scene.start === undefined || scene.start === 'previous' || UUID.test(scene.start)
      ? scene
      : { ...scene, start: path.resolve(dir, scene.start) },
  );
  return { ...board, scenes };
}
