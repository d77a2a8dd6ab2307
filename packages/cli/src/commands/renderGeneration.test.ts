import { describe, expect, it } from 'vitest';
import type { LeafContext } from '../framework/leafContext.js';
import { renderGeneration } from './generationFlags.js';

const ctx = { json: false, commandPath: 'image t2i' } as unknown as LeafContext;

describe('renderGeneration', () => {
  it('a run of two images shows both media ids and both files, and sums them up in one line', () => {
    const out = renderGeneration(
      {
        status: 'completed',
        task_id: 't-1',
        flow_project_id: 'proj-1',
        flow_media_id: 'm-1',
        files: ['/out/images/a.jpg', '/out/images/b.jpg'],
        media: [
          { media_id: 'm-1', file: '/out/images/a.jpg' },
          { media_id: 'm-2', file: '/out/images/b.jpg' },
        ],
      },
      ctx,
    );
    expect(out.text).toMatch(/^media:\s+m-1, m-2$/m);
    expect(out.text).toContain('/out/images/b.jpg');
    expect(out.summary).toBe('Made 2 images in project proj-1: /out/images/');
  });
});
