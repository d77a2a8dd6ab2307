import fs from 'node:fs';
import path from 'node:path';
import { FLOW_YAML_LIMITS, formatBytes } from './boundedYaml.js';

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

/** What reading a flow file gave: its text, or why not (ENOENT: it went away meanwhile). */
export type FlowSource = { readonly text: string } | { readonly refused: string } | { readonly missing: true };

/**
 * Reads a flow file without trusting it: opened non-blocking (a FIFO put in the folder would
 * otherwise hang the reload), only a regular file, and refused by its size before a byte is read
 * when it is larger than a flow file may be.
 */
export function readFlowSource(file: string): FlowSource {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { missing: true } : { refused: `cannot read: ${code ?? String(error)}` };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { refused: 'not a regular file' };
    if (stat.size > FLOW_YAML_LIMITS.maxBytes)
      return {
        refused: `the file is ${formatBytes(stat.size)}; a flow file may be at most ${formatBytes(FLOW_YAML_LIMITS.maxBytes)}`,
      };
    const buffer = Buffer.alloc(stat.size);
    const read = fs.readSync(fd, buffer, 0, stat.size, 0);
    return { text: buffer.subarray(0, read).toString('utf8') };
  } catch (error) {
    return { refused: `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  } finally {
    fs.closeSync(fd);
  }
}
