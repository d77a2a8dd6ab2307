import type { CliIo } from '../cliIo.js';
import type { LeafOutput } from '../framework/commandSpec.js';
import { terminalText } from './terminalText.js';

/**
 * Writes a leaf's result and returns its exit code. --json writes exactly one
 * JSON document (or JSON Lines for listings), untouched; a terminal gets the text form, with
 * control characters and escape sequences shown escaped (terminalText).
 */
export function writeOutput(io: CliIo, output: LeafOutput | undefined, json: boolean): number {
  if (!output) return 0;
  const jsonl = output.jsonl !== undefined && (json || (output.jsonlWhenPiped === true && io.stdout.isTTY !== true));
  if (jsonl) {
    for (const row of output.jsonl ?? []) io.stdout.write(`${JSON.stringify(row)}\n`);
  } else if (json) {
    io.stdout.write(`${JSON.stringify(output.data ?? null, null, 2)}\n`);
  } else if (output.text !== undefined) {
    // The text view: what it shows of stored or remote text goes through the one sanitiser.
    const text = terminalText(output.text, { multiline: true });
    if (text) io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  } else if (output.data !== undefined) {
    io.stdout.write(`${JSON.stringify(output.data, null, 2)}\n`);
  }
  return output.exitCode ?? 0;
}
