import type * as Mediabunny from 'mediabunny';
import { isMissingPackage } from '../runtime/optionalPeer.js';

/**
 * A clip's length in whole seconds, read from its own bytes (mediabunny, an optional peer of
 * core): how long an extension really is, which its model key does not say (flow-captures §10
 * measured one 7 s result; the simulator's `extendLength` switch also makes 8 s ones). Null when
 * mediabunny is not installed or the bytes cannot be read: the catalog then does not know the
 * length, and extending that clip is refused naming it, before anything is sent.
 */
export async function clipSecondsOf(bytes: Uint8Array): Promise<number | null> {
  let mediabunny: typeof Mediabunny;
  try {
    mediabunny = await import('mediabunny');
  } catch (error) {
    if (isMissingPackage(error, 'mediabunny')) return null;
    throw error;
  }
  const { ALL_FORMATS, BufferSource, Input } = mediabunny;
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(bytes) });
  try {
    const track = await input.getPrimaryVideoTrack();
    const seconds = track ? await track.computeDuration() : null;
    return seconds !== null && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : null;
  } catch {
    return null;
  } finally {
    input.dispose();
  }
}
