import fs from 'node:fs';
import path from 'node:path';
import { FLOW_YAML_LIMITS, formatBytes } from '@gflow/core/yaml';

/** The largest resource or completion file a flow may read (it is held in memory and served as is). */
export const FLOW_RESOURCE_MAX_BYTES = 1024 * 1024;

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

/**
 * Reads a file a flow refers to, confined to the flow's directory by what it really is, not only by
 * its name: the path and the directory are resolved through their symbolic links, and a target
 * that then lies outside is refused (issue 40: a resource linked to ~/.ssh/id_ed25519 was served).
 * Only a regular file of at most FLOW_RESOURCE_MAX_BYTES is read, opened non-blocking and without
 * following a link swapped in after the check. Throws with the reason.
 */
export function readFlowResourceFile(flowFile: string, relative: string): string {
  const target = resolveFlowFile(flowFile, relative);
  const base = fs.realpathSync(path.dirname(path.resolve(flowFile)));
  const real = fs.realpathSync(target);
  const inside = path.relative(base, real);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) {
    throw new Error(`"${relative}" leads outside the flow's directory through a symbolic link; it is not read`);
  }
  const fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (fs.constants.O_NOFOLLOW ?? 0));
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new Error(`"${relative}" is not a regular file`);
    if (stat.size > FLOW_RESOURCE_MAX_BYTES)
      throw new Error(
        `"${relative}" is ${formatBytes(stat.size)}; a flow reads at most ${formatBytes(FLOW_RESOURCE_MAX_BYTES)}`,
      );
    const buffer = Buffer.alloc(stat.size);
    return buffer.subarray(0, fs.readSync(fd, buffer, 0, stat.size, 0)).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
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
