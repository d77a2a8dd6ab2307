// A prompt tool takes the options its template and instruction name: another option is refused
// (exit 2, naming the tool's options) rather than dropped, so `--style` on a tool without a style
// never looks as if it had done something.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BadParameterError, exitCodeOf } from '@gflow/errors';
import { describe, expect, it } from 'vitest';
import { BUILTIN_PROMPT_TOOLS, expandPrompt, loadPromptTools, toolOptions } from './promptTools.js';

const refusal = async (promise: Promise<unknown>): Promise<BadParameterError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BadParameterError) return error;
    throw error;
  }
  throw new Error('the call was accepted');
};

describe('prompt tool options', () => {
  it('a tool knows the options of its defaults, template and instruction', () => {
    const tool = (name: string) => BUILTIN_PROMPT_TOOLS.find((t) => t.name === name)!;
    expect(toolOptions(tool('cinematic'))).toEqual(['grade']);
    expect(toolOptions(tool('creative-director'))).toEqual(['composition', 'location', 'style']);
  });

  it('a known option is applied; an unknown one is refused, exit 2, naming the known ones', async () => {
    const graded = await expandPrompt(
      'a harbour',
      [{ name: 'cinematic', options: { grade: 'noir' } }],
      [...BUILTIN_PROMPT_TOOLS],
    );
    expect(graded.expanded).toContain('noir colour grade');

    const error = await refusal(
      expandPrompt('a harbour', [{ name: 'cinematic', options: { style: 'noir' } }], BUILTIN_PROMPT_TOOLS),
    );
    expect(exitCodeOf(error)).toBe(2);
    expect(error.message).toBe('Prompt tool cinematic has no option "style"; its options: grade.');
    expect(error.extensions).toMatchObject({ parameter: 'tools', tool: 'cinematic', invalid_options: ['style'] });
  });

  it("a user tool's options are its template's placeholders and its [defaults]", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-tools-'));
    fs.writeFileSync(
      path.join(dir, 'moody.toml'),
      'template = "{prompt}, in a {mood} mood"\n[defaults]\nlight = "low"\n',
    );
    const tools = loadPromptTools(dir);
    const moody = tools.find((t) => t.name === 'moody')!;
    expect(toolOptions(moody)).toEqual(['light', 'mood']);
    expect((await expandPrompt('a fox', [{ name: 'moody', options: { mood: 'calm' } }], tools)).expanded).toBe(
      'a fox, in a calm mood',
    );
    const error = await refusal(expandPrompt('a fox', [{ name: 'moody', options: { grade: 'x' } }], tools));
    expect(error.message).toBe('Prompt tool moody has no option "grade"; its options: light, mood.');
  });
});
