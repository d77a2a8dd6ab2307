/** A packet's presentation time and length in seconds, listed in decode order. */
export interface PacketTiming {
  readonly timestamp: number;
  readonly duration: number;
}

/** Where a clip is cut: keep its first `keep` packets (decode order); what they show ends at `end` (s). */
export interface Cut {
  readonly keep: number;
  readonly end: number;
}

/** Timestamps from a container are rounded to its time base: within this they are equal. */
const EPSILON = 1e-4;

/**
 * Where to cut a clip so that the last `trimSeconds` of it are not shown, without re-encoding.
 * A frame is decoded only after the frames it refers to, so any prefix of the packets in decode
 * order keeps every reference it needs; the prefix is a clean cut when the frames it shows are
 * exactly those before some time (none of the dropped packets is shown earlier than a kept one).
 * Without B-frames every packet boundary is clean and the cut is exact; with B-frames it falls on
 * the last clean boundary at or before `end − trimSeconds` (a few frames more may be trimmed).
 */
export function cutPoint(packets: readonly PacketTiming[], trimSeconds: number): Cut {
  const start = Math.min(...packets.map((p) => p.timestamp));
  const end = Math.max(...packets.map((p) => p.timestamp + p.duration));
  if (packets.length === 0 || trimSeconds <= 0) return { keep: packets.length, end: packets.length === 0 ? 0 : end };
  const target = end - trimSeconds;
  const laterStart: number[] = new Array<number>(packets.length + 1).fill(Number.POSITIVE_INFINITY);
  for (let i = packets.length - 1; i >= 0; i -= 1)
    laterStart[i] = Math.min(laterStart[i + 1] ?? Number.POSITIVE_INFINITY, packets[i]?.timestamp ?? 0);
  let best: Cut = { keep: 0, end: start };
  let shownEnd = start;
  for (let i = 1; i <= packets.length; i += 1) {
    const p = packets[i - 1];
    if (p !== undefined) shownEnd = Math.max(shownEnd, p.timestamp + p.duration);
    if (shownEnd > target + EPSILON) break;
    if (shownEnd <= (laterStart[i] ?? Number.POSITIVE_INFINITY) + EPSILON) best = { keep: i, end: shownEnd };
  }
  return best;
}
