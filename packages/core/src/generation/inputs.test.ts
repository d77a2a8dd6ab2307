import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCatalog } from '@gflow/catalog';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveInputs } from './inputs.js';
import { planImage } from './plan.js';
import { generateImageInput } from './schemas.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-inputs-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const png = (name: string, extra: number): string => {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(extra)]),
  );
  return file;
};

describe('the inputs of a request', () => {
  it('the same image given twice is one reference, attached once (issue 41)', async () => {
    const catalog = openCatalog({ path: path.join(dir, 'gflow.db') });
    const c = png('c.png', 8);
    const copy = path.join(dir, 'copy-of-c.png');
    fs.copyFileSync(c, copy);
    const other = png('d.png', 9);
    const plan = planImage(generateImageInput.parse({ prompt: 'a cat', reference_images: [c, c, copy, other] }));
    const inputs = await resolveInputs(catalog, plan, 'default', dir);
    expect(inputs.references.map((r) => path.basename(r.path))).toEqual(['c.png', 'd.png']);
    catalog.close();
  });
});
