import fs from 'node:fs';
import path from 'node:path';

/** Flow files: *.yaml and *.yml directly inside a flows directory. */
export const FLOW_FILE = /\.ya?ml$/i;

/**
 * A file a flow refers to (resource content, completion list), relative to
 * the flow file's directory and confined to it: an absolute path or one that
 * climbs out with `..` is refused.
 */
export function resolveFlowFile(flowFile: string, relative: string): string {
  const base = path.dirname(path.resolve(flowFile));
  const target = path.resolve(base, relative);
  const inside = path.relative(base, target);
  if (path.isAbsolute(relative) || inside.startsWith('..') || path.isAbsolute(inside)) {
    throw new Error(`"${relative}" must be a path inside the flow's directory (${base})`);
  }
  return target;
}

/** The flow files of the given directories, in directory order then by name; missing directories are skipped. */
export function listFlowFiles(dirs: readonly string[]): string[] {
  const files: string[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names.filter((n) => FLOW_FILE.test(n) && !n.startsWith('.')).sort()) {
      const file = path.join(path.resolve(dir), name);
      try {
        if (fs.statSync(file).isFile()) files.push(file);
      } catch {
        // removed between readdir and stat
      }
    }
  }
  return files;
}
