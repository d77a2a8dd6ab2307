import { describe, expect, it } from 'vitest';
import { createGflow } from '../runtime/createGflow.js';
import { listModels } from './listModelsOperation.js';

describe('listModels', () => {
  it('answers what its output schema describes, member by member (issue 42: typed, not unknown)', async () => {
    const gflow = createGflow({ env: { GFLOW_CLI_HOME: '/nonexistent-gflow-home' }, cwd: '/' });
    try {
      const models = await gflow.run('listModels', {});
      expect(listModels.output.safeParse(models).success).toBe(true);
      // The result is typed: these compile without casts.
      const image: string[] = models.image.models.map((m) => m.name);
      const defaults: string | null = models.video.defaults.i2v;
      expect(image).toContain('nano2');
      expect(defaults).toBeTruthy();
      // Nothing left undescribed at the first two levels.
      expect(Object.keys(models).sort()).toEqual(['image', 'status', 'video']);
      expect(Object.keys(models.video).sort()).toEqual(['aspects', 'counts', 'defaults', 'models', 'tiers']);
    } finally {
      await gflow.close();
    }
  });
});
