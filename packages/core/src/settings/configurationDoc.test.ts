import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderConfigurationDoc } from './configurationDoc.js';
import { SETTINGS } from './settingsSpec.js';

describe('docs/CONFIGURATION.md', () => {
  it('is in step with the settings spec (run `pnpm --filter @gflow/core docs:config`)', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../docs/CONFIGURATION.md'), 'utf8');
    expect(doc).toBe(renderConfigurationDoc());
  });

  it('documents every setting', () => {
    const doc = renderConfigurationDoc();
    for (const spec of Object.values(SETTINGS)) expect(doc).toContain(`\`${spec.env}\``);
  });
});
