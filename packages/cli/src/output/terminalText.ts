/**
 * The one sanitiser for what the CLI's text views print of text it did not write itself: stored
 * prompts, titles and file names, Flow's messages, error details (issue 40: a prompt holding
 * `\e]0;title\a` retitled the window and `\e[31m` coloured the screen from `gflow data media`).
 * Control characters and escape sequences are shown escaped, never sent: C0 controls, DEL and the
 * C1 range (`\x9b` is a one-byte CSI) as `\xHH`/`\u00HH`, the bidirectional overrides and isolates
 * that reorder what a line shows (and the line and paragraph separators) as `\uHHHH`. `\n` stays
 * in multi-line text (`multiline`), so a view keeps its lines; a table cell escapes it too, so a
 * value cannot draw rows of its own. `--json` output never comes here: JSON escapes by itself.
 */
export function terminalText(text: string, options: { readonly multiline?: boolean } = {}): string {
  return text.replace(UNSAFE, (char) => (options.multiline === true && char === '\n' ? char : escapeOf(char)));
}

// C0 (tab and newline included: callers keep newlines with `multiline`), DEL, C1, ALM, LRM, RLM,
// LRE…RLO (U+202A–E), LRI…PDI (U+2066–9), LS and PS.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOf(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
