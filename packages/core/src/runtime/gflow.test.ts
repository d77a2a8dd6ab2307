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

const make = (env: Record<string, string> = {}) =>
  (gflow = createGflow({ surface: 'library', env: { GFLOW_CLI_HOME: home, ...env }, cwd: home }));

describe('Gflow runtime', () => {
  it('runs a static operation without opening the catalog', async () => {
    const g = make();
    const models = (await g.run('listModels', {})) as unknown as { image: { models: Array<{ name: string }> } };
    expect(models.image.models.map((m) => m.name)).toContain('nano2');
    expect(fs.existsSync(path.join(home, 'gflow.db'))).toBe(false);
  });

  it('finds operations by MCP name too, and refuses unknown ones with exit 2', async () => {
    const g = await make().loadOperations();
    expect(g.operation('gflow_list_models')?.name).toBe('listModels');
    // @ts-expect-error a name that is no operation's does not compile (issue 42)
    await expect(g.run('nope', {})).rejects.toMatchObject({ code: 'bad-parameter' });
    await expect(g.runByName('nope', {})).rejects.toMatchObject({ code: 'bad-parameter' });
    await expect(g.runByName('gflow_list_models', {})).resolves.toMatchObject({ status: 'ok' });
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
    const g = await make().ready();
    g.catalog.projects.upsert({ profile: 'alice', flowProjectId: 'proj-1', title: 'Cats' });
    g.recordUsage('gflow_list_projects');
    // The limit is refused beyond what it advertises (1..200), not clamped in silence.
    await expect(g.run('listProjects', { limit: 500 })).rejects.toMatchObject({ code: 'bad-parameter' });
    const page = (await g.run('listProjects', { limit: 200 })) as {
      projects: Array<{ project_id: string; url: string }>;
      has_more: boolean;
    };
    expect(page.projects).toEqual([
      expect.objectContaining({
        project_id: 'proj-1',
        title: 'Cats',
        profile: 'alice',
        url: 'https://flow.google.com/project/proj-1',
      }),
    ]);
    expect(page.has_more).toBe(false);
    const usage = (await g.run('usageStats', {})) as unknown as { invocations: { total: number } };
    expect(usage.invocations.total).toBe(1);
  });

  it('hides spending operations in no-spend mode', async () => {
    const g = await make({ GFLOW_MCP_NO_SPEND: '1' }).loadOperations();
    expect(g.operations().every((op) => op.kind !== 'spend')).toBe(true);
  });

  it('settles tasks a dead process left working when it opens the catalog', async () => {
    const first = await make().ready();
    const task = first.catalog.tasks.create({ profile: 'alice', taskType: 't2i', payload: { prompt: 'x' } });
    first.catalog.tasks.claim(task.taskId, 'mcp:alice:999999:deadbeef');
    await first.close();
    const second = await make().ready();
    expect((await second.tasks.get(task.taskId))?.status).toBe('failed');
  });

  it('a server batches the usage of reads that never load the catalog: no file per call, one append at the flush', async () => {
    const g = (gflow = createGflow({ surface: 'http', env: { GFLOW_CLI_HOME: home }, cwd: home }));
    const journal = path.join(home, 'usage-journal.jsonl');
    for (let i = 0; i < 25; i++) g.recordUsage('gflow_list_models');
    expect(fs.existsSync(journal)).toBe(false);
    expect(fs.existsSync(path.join(home, 'gflow.db'))).toBe(false);
    await g.close();
    // Written once at the close: into the journal, or the catalog when this process has its code loaded.
    const next = make();
    const usage = (await next.run('usageStats', {})) as unknown as {
      invocations: { total: number; byCommand: Array<{ command: string; count: number }> };
    };
    expect(usage.invocations.total).toBe(25);
    expect(usage.invocations.byCommand).toEqual([expect.objectContaining({ command: 'gflow_list_models', count: 25 })]);
  });

  it("journals a CLI run's usage while the catalog is closed and takes the journal in when it opens", async () => {
    const g = (gflow = createGflow({ surface: 'cli', env: { GFLOW_CLI_HOME: home }, cwd: home }));
    await g.run('listModels', {});
    g.recordUsage('models');
    g.recordUsage('tools list', 'alice', 'error');
    const journal = path.join(home, 'usage-journal.jsonl');
    expect(fs.existsSync(path.join(home, 'gflow.db'))).toBe(false);
    expect(
      fs
        .readFileSync(journal, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    ).toEqual([
      expect.objectContaining({ surface: 'cli', command: 'models', profile: null, outcome: 'ok' }),
      expect.objectContaining({ surface: 'cli', command: 'tools list', profile: 'alice', outcome: 'error' }),
    ]);
    expect(fs.statSync(journal).mode & 0o777).toBe(0o600);
    fs.appendFileSync(journal, '{"torn line\n7\nnull\n');
    await g.close();

    const next = make();
    const usage = (await next.run('usageStats', {})) as unknown as {
      invocations: { total: number; byCommand: Array<{ command: string; count: number }> };
    };
    expect(usage.invocations.total).toBe(2);
    expect(usage.invocations.byCommand.map((c) => c.command).sort()).toEqual(['models', 'tools list']);
    expect(fs.existsSync(journal)).toBe(false);
    expect(fs.readdirSync(home).filter((f) => f.startsWith('usage-journal'))).toEqual([]);
    // With the catalog open, usage goes straight to it.
    next.recordUsage('data list');
    expect(fs.existsSync(journal)).toBe(false);
    expect(
      ((await next.run('usageStats', {})) as unknown as { invocations: { total: number } }).invocations.total,
    ).toBe(3);
  });

  it('a server records straight into the catalog once its code is loaded (no journal)', async () => {
    const g = await (gflow = createGflow({ surface: 'mcp', env: { GFLOW_CLI_HOME: home }, cwd: home })).ready();
    g.recordUsage('gflow_list_models');
    expect(fs.existsSync(path.join(home, 'usage-journal.jsonl'))).toBe(false);
    expect(((await g.run('usageStats', {})) as unknown as { invocations: { total: number } }).invocations.total).toBe(
      1,
    );
  });

  it('a server batches usage in memory and writes it on flush or close, taking in CLI journals too', async () => {
    const g = await (gflow = createGflow({ surface: 'http', env: { GFLOW_CLI_HOME: home }, cwd: home })).ready();
    g.recordUsage('gflow_list_models');
    g.recordUsage('gflow_list_tools', 'alice', 'error');
    const reader = await make().ready();
    expect(reader.catalog.usage.stats({ weeks: 1 }).invocations.total).toBe(0); // nothing written yet
    const cli = createGflow({ surface: 'cli', env: { GFLOW_CLI_HOME: home }, cwd: home });
    cli.recordUsage('models'); // catalog closed in that runtime: journaled
    expect(fs.existsSync(path.join(home, 'usage-journal.jsonl'))).toBe(true);
    g.flushUsage();
    expect(fs.existsSync(path.join(home, 'usage-journal.jsonl'))).toBe(false);
    expect(
      reader.catalog.usage
        .stats({ weeks: 1 })
        .invocations.byCommand.map((c) => c.command)
        .sort(),
    ).toEqual(['gflow_list_models', 'gflow_list_tools', 'models']);
    g.recordUsage('gflow_auth_status');
    await g.close();
    gflow = undefined;
    expect(reader.catalog.usage.stats({ weeks: 1 }).invocations.total).toBe(4);
    await reader.close();
  });

  it('journals nothing when usage recording is off', async () => {
    fs.writeFileSync(path.join(home, 'config.toml'), '[telemetry]\nenabled = false\n');
    const g = make();
    g.recordUsage('models');
    expect(fs.existsSync(path.join(home, 'usage-journal.jsonl'))).toBe(false);
  });
});
