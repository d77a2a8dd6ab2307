import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGflow } from '../runtime/createGflow.js';
import { OPERATION_ENTRIES, loadOperations, operationEntry } from './registry.js';

// The tests run in order: the first ones see a registry nothing has loaded yet (this file imports
// the registry, not @gflow/core, whose import loads every operation).
describe('the lazy operation registry (issue 45)', () => {
  it('runs an operation by loading its module alone: the other operations stay unloaded', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-registry-'));
    const gflow = createGflow({ surface: 'cli', env: { GFLOW_CLI_HOME: home }, cwd: home });
    try {
      expect(OPERATION_ENTRIES.filter((e) => e.loaded() !== undefined)).toEqual([]);
      await expect(gflow.run('listModels', {})).resolves.toMatchObject({ status: 'ok' });
      expect(operationEntry('gflow_list_models')?.loaded()?.name).toBe('listModels');
      expect(operationEntry('generateImage')?.loaded()).toBeUndefined();
      // A listing needs every definition: before they are loaded it refuses instead of answering short.
      expect(() => gflow.operations()).toThrow(/not loaded yet/);
      expect(() => gflow.operation('generateVideo')).toThrow(/not loaded yet/);
      expect(gflow.operation('listModels')?.mcpName).toBe('gflow_list_models');
      expect(gflow.operation('nope')).toBeUndefined();
      const listed = (await gflow.loadOperations()).operations().map((op) => op.name);
      expect(listed).toEqual(expect.arrayContaining(['listModels', 'generateImage', 'listMedia']));
    } finally {
      await gflow.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('each entry loads the definition it names, once, and no name is entered twice', async () => {
    const operations = await loadOperations();
    expect(operations.map((op) => [op.name, op.mcpName])).toEqual(OPERATION_ENTRIES.map((e) => [e.name, e.mcpName]));
    const names = OPERATION_ENTRIES.flatMap((e) => [e.name, e.mcpName]);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of OPERATION_ENTRIES) expect(await entry.load()).toBe(entry.loaded());
    expect(await loadOperations(['gflow_list_models'])).toEqual([operationEntry('listModels')?.loaded()]);
    await expect(loadOperations(['nope'])).rejects.toThrow(/No gflow operation is named "nope"/);
  });
});
