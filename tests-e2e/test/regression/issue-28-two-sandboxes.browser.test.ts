// Issue 28, item 6: two sandbox runs at the same time in two homes, each with its own built-in
// simulator and Chromium, both finish (the report: one sat in `configuring` for minutes, 3 of 3
// tries). Each run has a short overall deadline, so a hang fails this test instead of stalling it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePng } from '@gflow/flow-sim';
import { json, removeDir, tempDir } from '@gflow/testkit';
import { browserSetting } from '@gflow/testkit/browser';
import { cli } from '@gflow/testkit/cli';

describe('6. two sandboxes in parallel', () => {
  it('two video i2v runs with start and end frames, in two homes at once, both complete', async () => {
    const homes = [tempDir('two-sandboxes-a'), tempDir('two-sandboxes-b')];
    try {
      const runs = homes.map((home) => {
        const day = path.join(home, 'day.png');
        const night = path.join(home, 'night.png');
        fs.writeFileSync(day, makePng(640, 360, 'day'));
        fs.writeFileSync(night, makePng(640, 360, 'night'));
        return cli(
          ['video', 'i2v', 'day turns to night', '--initial-frame', day, '--end-frame', night, '--sandbox', '--json'],
          { home, env: { ...browserSetting(), GFLOW_CLI_TIMEOUT_SECONDS: '90' }, timeoutMs: 140_000 },
        );
      });
      const results = await Promise.all(runs);
      for (const [i, r] of results.entries()) {
        expect(r.exitCode, `run ${i}: ${r.stderr.slice(-2000)}`).toBe(0);
        const out = json(r) as { status: string; files: string[] };
        expect(out.status).toBe('completed');
        expect(out.files).toHaveLength(1);
        expect(out.files[0]!.startsWith(homes[i]!)).toBe(true);
        expect(fs.statSync(out.files[0]!).size).toBeGreaterThan(1000);
      }
    } finally {
      for (const home of homes) removeDir(home);
    }
  }, 180_000);
});
