import { parseJson } from './formBody.js';

/**
 * The `)]}'` chunked reply envelope of batchexecute (flow-wire §3a): length lines
 * alternating with JSON-array lines. Parsed leniently: every line that starts with `[` is
 * decoded, everything else is skipped. `wrb.fr` items carry a payload (a JSON string) and an
 * optional error in slot [5]; `er` items are errors too.
 */
export interface WireItem {
  readonly kind: 'wrb.fr' | 'er';
  readonly rpcId: string;
  /** The decoded payload; `null` when the slot is null; `undefined` when it is not JSON. */
  readonly payload: unknown;
  /** The raw payload string, or null. */
  readonly payloadText: string | null;
  /** Slot [5]: a gRPC-style refusal such as `[7, null, [[type, [reason]]]]`, else null. */
  readonly error: unknown;
}

export interface ParsedEnvelope {
  readonly items: readonly WireItem[];
  /** Whether the text started with the `)]}'` guard. */
  readonly guarded: boolean;
  /** JSON lines that did not decode (a truncated reply). */
  readonly brokenLines: number;
}

export function parseBatchexecute(text: string): ParsedEnvelope {
  const guarded = text.trimStart().startsWith(")]}'");
  const items: WireItem[] = [];
  let brokenLines = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith('[')) continue;
    const parsed = parseJson(line);
    if (!Array.isArray(parsed)) {
      brokenLines += 1;
      continue;
    }
    for (const entry of parsed as unknown[]) collect(entry, items);
  }
  return { items, guarded, brokenLines };
}

function collect(entry: unknown, items: WireItem[]): void {
  if (!Array.isArray(entry)) return;
  const tag = entry[0];
  if ((tag === 'wrb.fr' || tag === 'er') && typeof entry[1] === 'string') {
    const payloadText = typeof entry[2] === 'string' ? entry[2] : null;
    items.push({
      kind: tag,
      rpcId: entry[1],
      payloadText,
      payload: payloadText === null ? null : parseJson(payloadText),
      error: tag === 'er' ? (entry[5] ?? entry[2] ?? [13]) : (entry[5] ?? null),
    });
  }
}

/** The wire items of one rpc id. */
export function itemsFor(envelope: ParsedEnvelope, rpcId: string): WireItem[] {
  return envelope.items.filter((item) => item.rpcId === rpcId);
}
