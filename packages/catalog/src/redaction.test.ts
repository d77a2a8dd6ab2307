import path from 'node:path';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCatalog } from './index.js';
import { sha256Text } from './hashing.js';
import { tempDir } from '../test/helpers.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('history prompts: redacted mode', () => {
  it('stores only hashes of prompts, expanded prompts and display names', () => {
    const file = path.join(tmp.dir, 'gflow.db');
    const c = openCatalog({ path: file, historyPrompts: 'redacted' });
    const prompt = 'my very private prompt about zebras';
    const op = c.operations.start({
      profile: 'alice',
      command: 'image t2i',
      prompt,
      expandedPrompt: `${prompt}, cinematic`,
    });
    expect(op).toMatchObject({
      prompt: null,
      expandedPrompt: null,
      promptRedacted: true,
      promptHash: sha256Text(prompt),
    });
    const asset = c.assets.record({
      profile: 'alice',
      flowMediaId: 'm',
      kind: 'image',
      displayName: 'zebra-secret.png',
    });
    expect(asset).toMatchObject({ displayName: null, displayNameHash: sha256Text('zebra-secret.png') });
    c.assets.link(op.id, asset.id, 'output');
    expect(c.assets.list({ kind: 'image' }).items[0]).toMatchObject({
      prompt: null,
      promptHash: sha256Text(prompt),
      displayName: null,
    });
    c.database.pragma('wal_checkpoint(TRUNCATE)');
    c.close();
    const bytes = readFileSync(file).toString('latin1');
    expect(bytes).not.toContain('zebras');
    expect(bytes).not.toContain('zebra-secret');
  });

  it('store mode keeps the text (and the hash), so the test above can fail', () => {
    const c = openCatalog({ path: ':memory:' });
    const op = c.operations.start({ profile: 'alice', command: 'image t2i', prompt: 'zebras' });
    expect(op).toMatchObject({ prompt: 'zebras', promptRedacted: false, promptHash: sha256Text('zebras') });
    expect(
      c.assets.record({ profile: 'alice', flowMediaId: 'm', kind: 'image', displayName: 'z.png' }).displayName,
    ).toBe('z.png');
  });
});
