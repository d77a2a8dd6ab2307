import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { InvalidOutputError, OutputNotWritableError } from '@gflow/errors';
import { makeDirectories } from './makeDirectories.js';

function realpathOfNearestExisting(target: string): string {
  let current = target;
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), ...tail.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return target;
      tail.push(path.basename(current));
      current = parent;
    }
  }
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

export interface ConfineOptions {
  /** The parameter name for the error (`output`, `out_dir`). */
  readonly parameter: string;
  /** A file target refuses directories (and the output dir itself). */
  readonly kind: 'file' | 'dir';
}

/**
 * Resolves an MCP-supplied output path inside the output directory. A
 * relative value is taken relative to it; `..`, an absolute path elsewhere or
 * a symlink leading out is refused with a 400 Invalid Output, before anything
 * runs. A file target that names a directory is refused too.
 */
export function confineToOutputDir(outputDir: string, value: string, options: ConfineOptions): string {
  const root = path.resolve(outputDir);
  const refuse = (why: string): never => {
    throw new InvalidOutputError(`${options.parameter} ${why}`, { extensions: { parameter: options.parameter } });
  };
  if (value.includes('\0')) refuse('contains a NUL byte.');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) refuse('must be a local path inside the output directory.');
  const target = path.resolve(root, value);
  if (!isInside(root, target)) refuse('must resolve inside the output directory (GFLOW_CLI_OUTPUT_DIR).');
  const realRoot = realpathOfNearestExisting(root);
  const realTarget = realpathOfNearestExisting(target);
  if (!isInside(realRoot, realTarget)) refuse('leads outside the output directory through a link.');
  if (options.kind === 'file')
    assertNotDirectory(/[/\\]$/.test(value) ? `${target}/` : target, options.parameter, root);
  return target;
}

/** Refuses a file output that names a directory (including the output dir itself). */
export function assertNotDirectory(target: string, parameter: string, outputDir?: string): void {
  const isDir = (() => {
    try {
      return fs.statSync(target).isDirectory();
    } catch {
      return false;
    }
  })();
  if (isDir || (outputDir !== undefined && path.resolve(target) === path.resolve(outputDir)) || /[/\\]$/.test(target)) {
    throw new InvalidOutputError(`${parameter} names a directory; name a file.`, { extensions: { parameter } });
  }
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'a part of the path is a file, not a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'the file system is read-only';
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'no space left';
  if (code === 'ENOENT') return 'the directory cannot be created there';
  return code ?? 'it cannot be written';
}

/**
 * Makes sure files can be written into `dir` before anything is spent: the directory exists or
 * is created now, is a directory, and a probe file can be created in it (and is removed). This
 * catches what a permission check cannot (root on /proc, a read-only mount, a file in the way).
 * `parameter` names the flag or setting in the error.
 */
export function ensureWritableDirectory(dir: string, parameter: string): void {
  const refuse = (why: string, cause: unknown): never => {
    throw new OutputNotWritableError(
      `${parameter}: files cannot be written into ${dir} (${why}). Nothing was sent to Flow.`,
      { cause, extensions: { parameter } },
    );
  };
  try {
    makeDirectories(dir);
  } catch (error) {
    refuse(reasonOf(error), error);
  }
  const probe = path.join(dir, `.gflow-write-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    fs.closeSync(fs.openSync(probe, 'wx', 0o600));
  } catch (error) {
    refuse(reasonOf(error), error);
  }
  fs.rmSync(probe, { force: true });
}
