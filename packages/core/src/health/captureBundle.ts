// The capture bundle of `gflow doctor --live --capture DIR`: what the page's anchors and read-only
// replies looked like, redacted so a user can attach it to an issue, and what
// packages/flow-sim/scripts/captureToFixtures.mjs turns into simulator fixtures.
import path from 'node:path';
import type { FlowCheckReport } from '@gflow/driver';
import { SecurityError } from '@gflow/errors';
import { writeFileAtomic } from '../output/atomicWrite.js';

/** The bundle's format: its files and their fields (bump on a change the fixture script must know). */
export const CAPTURE_FORMAT = 'gflow-flow-capture/1';

/** The files of a bundle, in the directory asked for. */
export const CAPTURE_FILES = ['manifest.json', 'anchors.json', 'replies.json'] as const;

/**
 * What must never be in a bundle, whatever the page showed: an email address, a signed URL's query
 * (`Expires=`, `Signature=`, `KeyName=`), an OAuth token, a session cookie's name=value, a URL with a
 * query, an id (UUID). The driver masks text, ids and URLs before they leave the page; this is the
 * last check before anything is written, and a bundle that fails it is not written at all.
 */
const PRIVATE: readonly (readonly [string, RegExp])[] = [
  ['an email address', /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/],
  ['a signed URL', /(?:Expires|Signature|KeyName)=/i],
  ['a token', /ya29\.|\bAIza[\w-]{20,}/],
  ['a cookie', /\b(?:SAPISID|APISID|HSID|SSID|SID|OSID|__Secure-[\w-]+|__Host-[\w-]+)=/],
  ['a URL with a query', /https?:\/\/[^\s"'<>]*\?/i],
  ['an id', /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i],
];

/** Refuses text that holds anything PRIVATE names (SecurityError, exit 13): the bundle is not written. */
export function assertNothingPrivate(file: string, text: string): void {
  for (const [what, pattern] of PRIVATE) {
    if (pattern.test(text))
      throw new SecurityError(
        `The capture bundle's ${file} would hold ${what}; nothing was written. This is a bug in gflow's masking: please report it (without the bundle).`,
      );
  }
}

/** The bundle's three documents, from a check's report (the capture must have been asked for). */
export function captureDocuments(report: FlowCheckReport, checkedAt: string): Record<string, unknown> {
  const capture = report.capture ?? { anchors: [], replies: [] };
  return {
    'manifest.json': {
      format: CAPTURE_FORMAT,
      captured_at: checkedAt,
      build_label: report.buildLabel,
      arm: report.arm,
      capabilities: report.capabilities,
      replies: report.replies,
    },
    'anchors.json': { format: CAPTURE_FORMAT, anchors: capture.anchors },
    'replies.json': { format: CAPTURE_FORMAT, replies: capture.replies },
  };
}

/** Writes the bundle into `dir` (0600 files, each atomically), after every document passed the check. */
export async function writeCaptureBundle(dir: string, documents: Record<string, unknown>): Promise<string[]> {
  const texts = Object.entries(documents).map(([file, doc]) => [file, `${JSON.stringify(doc, null, 2)}\n`] as const);
  for (const [file, text] of texts) assertNothingPrivate(file, text);
  for (const [file, text] of texts) await writeFileAtomic(path.join(dir, file), Buffer.from(text), 0o600);
  return texts.map(([file]) => file);
}
