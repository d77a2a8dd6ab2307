import fs from 'node:fs';

/**
 * Parses a `.env` file: `KEY=VALUE` lines, optional `export `, `#` comments,
 * single quotes taken literally, double quotes with \n \t \" \\ escapes.
 */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const key = match[1] as string;
    let value = (match[2] as string).trim();
    if (value.startsWith('"')) {
      const end = value.lastIndexOf('"');
      value = value
        .slice(1, end > 0 ? end : undefined)
        .replace(/\\([nt"\\])/g, (_m, c: string) => ({ n: '\n', t: '\t', '"': '"', '\\': '\\' })[c] ?? c);
    } else if (value.startsWith("'")) {
      const end = value.lastIndexOf("'");
      value = value.slice(1, end > 0 ? end : undefined);
    } else {
      value = value.replace(/\s+#.*$/, '');
    }
    out[key] = value;
  }
  return out;
}

/** Reads a `.env` file; a missing file (or one under a path that is no directory) is empty. */
export function readDotenv(file: string): Record<string, string> {
  try {
    return parseDotenv(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return {};
    throw error;
  }
}
