// Where a generation's files go, decided before anything is sent: the explicit file, the flat
// output_dir (MCP: confined to the output directory, like output), or the layout — and never a
// file that is already there unless overwrite.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { OperationContext } from '../runtime/operationContext.js';
import { outputTargetFor } from './outputTarget.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-output-target-'));
const outputDir = path.join(root, 'out');
const outside = path.join(root, 'elsewhere');
fs.mkdirSync(outputDir);
fs.mkdirSync(outside);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const on = (surface: 'mcp' | 'cli'): OperationContext =>
  ({ surface, runtime: { settings: { outputDir } } }) as unknown as OperationContext;

describe('outputTargetFor', () => {
  it('MCP: output_dir is taken inside the output directory, and made', () => {
    expect(outputTargetFor({ output_dir: 'shots' }, on('mcp'))).toEqual({
      dir: path.join(outputDir, 'shots'),
      overwrite: false,
    });
    expect(fs.statSync(path.join(outputDir, 'shots')).isDirectory()).toBe(true);
  });

  it.each([
    ['../elsewhere', 'a parent path'],
    [outside, 'an absolute path outside'],
    ['file:///etc', 'a URL'],
  ])('MCP: output_dir %s (%s) is refused as invalid-output', (value) => {
    expect(() => outputTargetFor({ output_dir: value }, on('mcp'))).toThrow(
      expect.objectContaining({ code: 'invalid-output' }),
    );
  });

  it('MCP: an output_dir that leads outside through a link is refused', () => {
    fs.symlinkSync(outside, path.join(outputDir, 'link'));
    expect(() => outputTargetFor({ output_dir: 'link/x' }, on('mcp'))).toThrow(
      expect.objectContaining({ code: 'invalid-output' }),
    );
  });

  it('CLI: output_dir is the user’s own path', () => {
    expect(outputTargetFor({ output_dir: outside }, on('cli'))).toEqual({ dir: outside, overwrite: false });
  });

  it('output and output_dir together are a bad parameter', () => {
    expect(() => outputTargetFor({ output: 'a.jpg', output_dir: 'd' }, on('mcp'))).toThrow(
      expect.objectContaining({ code: 'bad-parameter' }),
    );
  });

  it('an output that exists is refused unless overwrite; with count 2 its numbered names are looked at', () => {
    const file = path.join(outputDir, 'taken.jpg');
    fs.writeFileSync(file, 'mine');
    expect(() => outputTargetFor({ output: 'taken.jpg' }, on('mcp'))).toThrow(/already exists/);
    expect(outputTargetFor({ output: 'taken.jpg', overwrite: true }, on('mcp'))).toEqual({ file, overwrite: true });
    fs.writeFileSync(path.join(outputDir, 'pair_2.jpg'), 'mine');
    expect(() => outputTargetFor({ output: 'pair.jpg', count: 2 }, on('mcp'))).toThrow(/pair_2\.jpg already exists/);
    expect(fs.readFileSync(file, 'utf8')).toBe('mine');
  });
});
