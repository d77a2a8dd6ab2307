import { parse as parseToml } from 'smol-toml';

/**
 * Reads a user's file as JSON or TOML: `.json` as JSON, `.toml` as TOML, any other name as JSON
 * and then as TOML. Returns the document, or why it is neither (one line per format tried).
 */
export function parseJsonOrToml(
  fileName: string,
  text: string,
): { readonly ok: true; readonly doc: unknown } | { readonly ok: false; readonly problems: string } {
  const lower = fileName.toLowerCase();
  const formats: Array<['JSON' | 'TOML', (t: string) => unknown]> = lower.endsWith('.toml')
    ? [['TOML', parseToml]]
    : lower.endsWith('.json')
      ? [['JSON', (t) => JSON.parse(t) as unknown]]
      : [
          ['JSON', (t) => JSON.parse(t) as unknown],
          ['TOML', parseToml],
        ];
  const problems: string[] = [];
  for (const [format, parse] of formats) {
    try {
      return { ok: true, doc: parse(text) };
    } catch (error) {
      const first = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
      problems.push(`not valid ${format} (${first})`);
    }
  }
  return { ok: false, problems: problems.join(', and ') };
}
