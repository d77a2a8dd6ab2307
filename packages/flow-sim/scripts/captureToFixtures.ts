// Turns a capture bundle (`gflow doctor --live --capture DIR`) into a simulator fixture that
// test/capturedFixtures.browser.test.ts holds the simulator to:
//   pnpm --filter @gflow/flow-sim capture:fixture -- DIR --name NAME [--variant name=value]…
// writes test/fixtures/captured/NAME.json (refused when the bundle holds anything private).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fixtureFromBundle } from '../src/capture/captureFixture.js';
import { checkVariants } from '../src/variants.js';

const argv = process.argv.slice(2);
const { values, positionals } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  allowPositionals: true,
  options: { name: { type: 'string' }, variant: { type: 'string', multiple: true }, out: { type: 'string' } },
});
const dir = positionals[0];
if (dir === undefined || values.name === undefined) {
  process.stderr.write('usage: captureToFixtures DIR --name NAME [--variant name=value]… [--out DIR]\n');
  process.exit(2);
}
const read = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as unknown;
const variants = Object.fromEntries((values.variant ?? []).map((pair) => pair.split('=', 2) as [string, string]));
checkVariants(variants);
try {
  const fixture = fixtureFromBundle(
    { manifest: read('manifest.json'), anchors: read('anchors.json'), replies: read('replies.json') },
    values.name,
    variants,
  );
  const outDir = values.out ?? path.resolve(import.meta.dirname, '../test/fixtures/captured');
  fs.mkdirSync(outDir, { recursive: true });
  const target = path.join(outDir, `${fixture.name}.json`);
  fs.writeFileSync(target, `${JSON.stringify(fixture, null, 2)}\n`);
  process.stdout.write(
    `wrote ${target}: ${Object.keys(fixture.replies).length} replies, ${fixture.anchors.length} anchors; run test/capturedFixtures.browser.test.ts\n`,
  );
} catch (error) {
  process.stderr.write(`captureToFixtures: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
