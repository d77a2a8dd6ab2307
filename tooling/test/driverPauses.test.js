// The driver waits for state, not for time (#22): a fixed pause — `sleep(…)` or
// `waitForTimeout(…)` — in packages/driver/src is allowed only under a comment that says why no
// state can be waited for there (a backoff between retries, a measured delay of Flow's). Waits for
// the page go through util/domWait (untilDom) or util/changeSignal.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const driverSrc = path.join(root, 'packages/driver/src');
const PAUSE = /\b(?:await\s+)?(?:sleep|\w+\.waitForTimeout)\(/;

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return files(full);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [full] : [];
  });
}

/** The pauses of a source text that no comment explains: a `//` or `*` line within the two lines above. */
export function unexplainedPauses(text) {
  const lines = text.split('\n');
  const out = [];
  lines.forEach((line, i) => {
    if (!PAUSE.test(line) || /^\s*(?:\/\/|\*)/.test(line) || /function sleep\(/.test(line)) return;
    const above = lines.slice(Math.max(0, i - 2), i);
    if (!above.some((l) => /^\s*(?:\/\/|\*|\/\*\*)/.test(l))) out.push(`${i + 1}: ${line.trim()}`);
  });
  return out;
}

describe('fixed pauses in the driver', () => {
  it('the check sees an unexplained pause and accepts an explained one', () => {
    expect(unexplainedPauses('async function f() {\n  x();\n  await sleep(200, signal);\n}')).toEqual([
      '3: await sleep(200, signal);',
    ]);
    expect(unexplainedPauses('  await page.waitForTimeout(500);')).toHaveLength(1);
    expect(unexplainedPauses('  // A backoff: nothing says when to retry.\n  await sleep(500 * attempt);')).toEqual([]);
  });

  it('every sleep or waitForTimeout in packages/driver/src says why no state is waited for', () => {
    const found = files(driverSrc).flatMap((file) =>
      unexplainedPauses(fs.readFileSync(file, 'utf8')).map((hit) => `${path.relative(root, file)}:${hit}`),
    );
    expect(found).toEqual([]);
  });
});
