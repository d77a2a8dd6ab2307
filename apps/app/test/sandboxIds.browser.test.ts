// The sandbox's simulator starts with a fresh seed each time: its catalog outlives the simulator,
// so two runs (two demos) must not mint the same project or media ids, as Flow never would.
import { tempDir } from '@gflow/testkit';
import { browserSetting } from '@gflow/testkit/browser';
import { describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNT, openSandbox } from '@gflow/core/sandbox';

describe('sandbox simulator ids', () => {
  it('two sandbox starts on one home mint different ids', async () => {
    const home = tempDir('sandbox-ids');
    const ids: string[] = [];
    // Run 0 creates the sandbox account (persisted); runs 1 and 2 then start from the same state.
    for (let run = 0; run < 3; run++) {
      const sandbox = await openSandbox({
        surface: 'cli',
        env: { GFLOW_CLI_HOME: home, ...browserSetting() },
        cwd: home,
        notify: () => undefined,
      });
      try {
        expect(sandbox.sim, 'an in-process simulator').toBeDefined();
        const project = sandbox.sim!.scenario.createProject(SANDBOX_ACCOUNT, { title: `run ${run}` });
        const upload = sandbox.sim!.scenario.addUpload(SANDBOX_ACCOUNT, project.id, 'a.png', Buffer.from('x'));
        if (run > 0) ids.push(project.id, upload.mediaId);
      } finally {
        await sandbox.gflow.close();
        await sandbox.sim?.close();
      }
    }
    expect(new Set(ids).size).toBe(4);
  }, 60_000);
});
