import { terminalText } from './terminalText.js';

/** A plain text table: a header row, then rows; null/undefined print as "-"; the last column is never cut. */
export function renderTable(headers: readonly string[], rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
  // A cell is one line: a newline (or any control) in a stored value is shown escaped, not drawn.
  const cells = rows.map((row) =>
    row.map((c) => (c === null || c === undefined || c === '' ? '-' : terminalText(String(c)))),
  );
  const last = headers.length - 1;
  const widths = headers.map((h, i) => Math.min(60, Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length))));
  const line = (values: readonly string[]): string =>
    values
      .map((v, i) => {
        if (i === last) return v;
        const w = widths[i] ?? 0;
        return (v.length > w ? `${v.slice(0, w - 1)}…` : v).padEnd(w);
      })
      .join('  ')
      .trimEnd();
  return [line(headers), ...cells.map(line)].join('\n');
}

/**
 * A listing's text: its table, or — with no rows — one line instead of a bare header: `empty`
 * ("No … yet."), or, on a page past the first (`offset`), that nothing is left there.
 */
export function renderListing(
  headers: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
  empty: string,
  offset = 0,
): string {
  if (rows.length) return renderTable(headers, rows);
  return offset > 0 ? `Nothing past offset ${offset}.` : empty;
}

/** `key: value` lines for a flat object (nested values as compact JSON). */
export function renderFields(record: Readonly<Record<string, unknown>>): string {
  const width = Math.max(0, ...Object.keys(record).map((k) => k.length));
  return Object.entries(record)
    .map(
      ([k, v]) =>
        `${`${k}:`.padEnd(width + 1)} ${v === null || v === undefined ? '-' : terminalText(typeof v === 'object' ? JSON.stringify(v) : String(v))}`,
    )
    .join('\n');
}

/** A command's result document as `key: value` lines, less the `status: "ok"` its exit code already says. */
export function renderResult(result: unknown): string {
  const { status, ...fields } = result as Record<string, unknown>;
  return renderFields(status === 'ok' ? fields : (result as Record<string, unknown>));
}
