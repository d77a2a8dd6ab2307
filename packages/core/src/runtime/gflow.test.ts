import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exitCodeOf } from '@gflow/errors';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGflow } from './createGflow.js';
import type { Gflow } from './gflow.js';

let home: string;
let gflow: Gflow | undefined;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-rt-'));
});
afterEach(async () => {
  await gflow?.close();
  gflow = undefined;
});

const make = (env: Record<string, string> = {}) => (gflow = createGflow({ surface: 'library', env: { GFLOW_CLI_HOME: home, ...env }, cwd: home }));

describe('Gflow runtime', () => {
  it('runs a static operation without opening the catalog', async () => {
    const g = make();
    const models = (await g.run('listModels', {})) as { image: { models: Array<{ name: string }> } };
    expect(models.image.models.map((m) => m.name)).toContain('nano2');
    expect(fs.existsSync(path.join(home, 'gflow.db'))).toBe(false);
  });

  it('finds operations by MCP name too, and refuses unknown ones with exit 2', async () => {
    const g = make();
    expect(g.operation('gflow_list_models')?.name).toBe('listModels');
    await expect(g.run('nope', {})).rejects.toMatchObject({ code: 'bad-parameter' });
  });

  it('validates input with the operation schema (400 naming the parameter)', async () => {
    const g = make();
    let caught: unknown;
    try {
      await g.run('usageStats', { weeks: 99 });
    } catch (error) {
      caught = error;
    }
    expect(exitCodeOf(caught)).toBe(2);
    expect((caught as { extensions: Record<string, unknown> }).extensions['parameter']).toBe('weeks');
  });

  it('lists projects and usage from the catalog', async () => {
    const g = make();
    g.catalog.projects.upsert({ profile: 'alice', flowProjectId: 'proj-1', title: 'Cats' });
    g.recordUsage('gflow_list_projects');
    const page = (await g.run('listProjects', { limit: 500 })) as { projects: Array<{ project_id: string; url: string }>; has_more: boolean };
    expect(page.projects).toEqual([expect.objectContaining({ project_id: 'proj-1', title: 'Cats', profile: 'alice', url: 'https://flow.google.com/project/proj-1' })]);
    expect(page.has_more).toBe(false);
    const usage = (await g.run('usageStats', {})) as { invocations: { total: number } };
    expect(usage.invocations.total).toBe(1);
  });

  it('hides spending operations in no-spend mode', () => {
    const g = make({ GFLOW_MCP_NO_SPEND: '1' });
    expect(g.operations().every((op) => op.kind !== 'spend')).toBe(true);
  });

  it('settles tasks a dead process left working when it opens the catalog', async () => {
    const first = make();
    const task = first.catalog.tasks.create({ profile: 'alice', taskType: 't2i', payload: { prompt: 'x' } });
    first.catalog.tasks.claim(task.taskId, 'mcp:alice:999999:deadbeef');
    await first.close();
    const second = make();
    expect(second.tasks.get(task.taskId)?.status).toBe('failed');
  });
});
