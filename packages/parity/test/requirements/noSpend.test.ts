import { expect } from 'vitest';
import { expectOk } from '../../src/expectOutcome.js';
import { useSurfaces } from '../../src/harness.js';
import { verifies } from '../../src/verifies.js';

// No-spend everywhere: GFLOW_MCP_NO_SPEND for the library and the CLI, and
// the servers started as an operator would (`gflow mcp run --no-spend`,
// `gflow serve --no-spend`).
useSurfaces({ name: 'no-spend', settings: { GFLOW_MCP_NO_SPEND: '1' }, serverArgs: ['--no-spend'] });

const SPENDING = ['gflow_generate_image', 'gflow_generate_video'];

verifies('no-spend.tools-hidden', async (s) => {
  const names = await s.listTools();
  if (!names) throw new Error(`${s.surface} lists no tools`);
  for (const name of SPENDING) expect(names).not.toContain(name);
  expect(names).toEqual(
    expect.arrayContaining([
      'gflow_list_models',
      'gflow_list_projects',
      'gflow_instructions_list',
      'gflow_character_voices',
    ]),
  );
  expect(expectOk(await s.call('listModels', {}))['status']).toBe('ok');
});

verifies('no-spend.spending-refused', async (s) => {
  for (const operation of ['generateImage', 'generateVideo']) {
    const outcome = await s.call(operation, { prompt: 'a red fox in fresh snow' });
    if (outcome.ok) throw new Error(`${operation} ran in no-spend mode`);
    expect(`${outcome.problem.detail} ${outcome.problem.remediation_hint ?? ''}`).toMatch(
      /no-spend|GFLOW_MCP_NO_SPEND/i,
    );
    expect(outcome.problem.type).toBe('https://gflow.dev/errors/configuration');
    if (outcome.exitCode !== undefined) expect(outcome.exitCode).toBe(11);
  }
});
