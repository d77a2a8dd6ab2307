import { UsageError } from '@gflow/errors';

export interface ToolSpecValue {
  readonly name: string;
  readonly options?: Record<string, string | number | boolean>;
}

function scalar(text: string): string | number | boolean {
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}

/**
 * `-t NAME[:k=v[,k=v…]]` → `{name, options}`, the item shape of the
 * operations' `tools` parameter. Numbers and true/false are typed; the
 * operation's schema validates the rest.
 */
export function parseToolSpec(raw: string): ToolSpecValue {
  const colon = raw.indexOf(':');
  const name = (colon >= 0 ? raw.slice(0, colon) : raw).trim();
  if (!name)
    throw new UsageError(`-t/--tool takes NAME[:key=value,...]; got ${JSON.stringify(raw)}.`, {
      extensions: { parameter: 'tool' },
    });
  if (colon < 0) return { name };
  const options: Record<string, string | number | boolean> = {};
  for (const pair of raw.slice(colon + 1).split(',')) {
    if (!pair.trim()) continue;
    const eq = pair.indexOf('=');
    if (eq <= 0)
      throw new UsageError(`Tool option ${JSON.stringify(pair)} is not key=value.`, {
        extensions: { parameter: 'tool' },
      });
    options[pair.slice(0, eq).trim()] = scalar(pair.slice(eq + 1).trim());
  }
  return Object.keys(options).length ? { name, options } : { name };
}
