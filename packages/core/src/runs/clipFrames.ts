import fs from 'node:fs';
import path from 'node:path';
import { resolveProfile } from '../home/profiles.js';
import { withFlowSession } from '../runtime/flowSessions.js';
import type { OperationContext } from '../runtime/operationContext.js';

/** The frame file of a clip: `link-1.mp4` → `link-1.last.png`, beside the clip or in `dir`. */
export function frameFileOf(clip: string, dir: string = path.dirname(clip)): string {
  return path.join(dir, `${path.parse(clip).name}.last.png`);
}

/**
 * A clip's last frame, taken once with the profile's browser (the run's own session) and kept as
 * a file (beside the clip, or in `dir` when the clip is not the run's own): a later step starts
 * from it, and a resumed run takes it again only when it is missing.
 */
export async function lastFrameFile(
  context: OperationContext,
  profile: string,
  clip: string,
  dir?: string,
): Promise<string> {
  const target = frameFileOf(clip, dir);
  if (fs.existsSync(target)) return target;
  const { lastFrameOf } = await import('@gflow/driver');
  const bytes = fs.readFileSync(clip);
  const resolved = resolveProfile(context.runtime.layout, { requested: profile });
  const use = { signal: context.signal, facts: () => ({ operation: 'last frame' }) };
  const frame = await withFlowSession(context.runtime, resolved, use, (session) => lastFrameOf(session.context, bytes));
  fs.writeFileSync(target, frame.png);
  return target;
}
