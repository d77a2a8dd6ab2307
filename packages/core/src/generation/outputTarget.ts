import fs from 'node:fs';
import path from 'node:path';
import { BadParameterError, InvalidOutputError } from '@gflow/errors';
import { assertNotDirectory, confineToOutputDir, ensureWritableDirectory } from '../output/confine.js';
import type { OperationContext } from '../runtime/operationContext.js';
import { SURFACE_POLICY } from '../runtime/surfacePolicy.js';
import { askedPathsFor } from './saveMedia.js';

/** Where the files of one generation go: an explicit file, a flat directory, or (neither) the output tree. */
export interface OutputTarget {
  readonly file?: string;
  readonly dir?: string;
  readonly overwrite: boolean;
}

interface OutputAsked {
  readonly output?: string | undefined;
  readonly output_dir?: string | undefined;
  readonly overwrite?: boolean | undefined;
  readonly count?: number | undefined;
}

/** An explicit file: confined (MCP) or the user's own path (CLI), never a directory, never taken unless overwrite. */
function outputFile(input: OutputAsked & { readonly output: string }, context: OperationContext): string {
  const { settings } = context.runtime;
  let target: string;
  if (SURFACE_POLICY[context.surface].confineOutput) {
    target = confineToOutputDir(settings.outputDir, input.output, { parameter: 'output', kind: 'file' });
  } else {
    target = path.resolve(input.output);
    assertNotDirectory(/[/\\]$/.test(input.output) ? `${target}/` : target, 'output', settings.outputDir);
  }
  ensureWritableDirectory(path.dirname(target), 'output');
  if (input.overwrite === true) return target;
  const taken = askedPathsFor(target, input.count ?? 1).filter((file) => fs.existsSync(file));
  if (taken.length > 0)
    throw new InvalidOutputError(
      `output: ${taken.join(', ')} already exists and would be replaced. Nothing was sent to Flow.`,
      {
        remediationHint: 'Name another file, or pass --force to replace it.',
        extensions: { parameter: 'output', existing: taken },
      },
    );
  return target;
}

/**
 * Where the files will go, checked before anything is sent: the explicit output (MCP: confined
 * to the output dir; the CLI's -o: the user's own path, never a directory, never an existing file
 * unless overwrite), the flat output_dir, or the output dir's layout — in each case a directory
 * files can really be written into.
 */
export function outputTargetFor(input: OutputAsked, context: OperationContext): OutputTarget {
  const { settings } = context.runtime;
  const overwrite = input.overwrite === true;
  if (input.output && input.output_dir)
    throw new BadParameterError('Name either output (a file) or output_dir (a directory), not both.', {
      extensions: { parameter: 'output_dir' },
    });
  if (input.output_dir) {
    const dir = SURFACE_POLICY[context.surface].confineOutput
      ? confineToOutputDir(settings.outputDir, input.output_dir, { parameter: 'output_dir', kind: 'dir' })
      : path.resolve(input.output_dir);
    ensureWritableDirectory(dir, 'output_dir');
    return { dir, overwrite };
  }
  if (!input.output) {
    ensureWritableDirectory(settings.outputDir, 'GFLOW_CLI_OUTPUT_DIR');
    return { overwrite };
  }
  return { file: outputFile({ ...input, output: input.output }, context), overwrite };
}
