import path from 'node:path';
import type { Storyboard } from './storyboard.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A storyboard file's text read into a checked storyboard (YAML or JSON, within bounds; a problem
 * names its line or field, exit 2), with each `start` image file taken relative to the file's own
 * folder. Asynchronous because the storyboard's schema loads here, not with every command.
 */
export async function readStoryboardFile(file: string, text: string): Promise<Storyboard> {
  const { parseStoryboardText } = await import('./storyboard.js');
  const board = parseStoryboardText(text);
  const dir = path.dirname(path.resolve(file));
  const scenes = board.scenes.map((scene) =>
    scene.start === undefined || scene.start === 'previous' || UUID.test(scene.start)
      ? scene
      : { ...scene, start: path.resolve(dir, scene.start) },
  );
  return { ...board, scenes };
}
