import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's docs/ directory, as seen from this source file (packages/mcp/src/resources). */
export function defaultDocsDir(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs');
}

/** Reads KNOWN_ISSUES.md from the docs directory; an empty text when it is missing. */
export async function readKnownIssuesMarkdown(docsDir: string): Promise<string> {
  try {
    return await readFile(path.join(docsDir, 'KNOWN_ISSUES.md'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}
