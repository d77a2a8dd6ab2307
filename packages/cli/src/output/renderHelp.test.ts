import { describe, expect, it } from 'vitest';
import { flag } from '../args/flagSpec.js';
import { type LeafSpec, defineGroup, defineLeaf } from '../framework/commandSpec.js';
import { renderHelp } from './renderHelp.js';

const inner = defineLeaf({ name: 'inner', description: 'Internal.', hidden: true, run: async () => ({ data: {} }) });
const shown = defineLeaf({ name: 'shown', description: 'A listed command.', run: async () => ({ data: {} }) });
const bareWithFlags: LeafSpec = {
  name: 'serve',
  description: 'Serve until stopped.',
  flags: () => [flag({ key: 'pools', kind: 'string', valueHint: 'POOLS', description: 'The pools it serves.' })],
  examples: ['gflow serve --pools a=b'],
  run: async () => ({ data: {} }),
};
const bareWithout: LeafSpec = { name: 'list', description: 'List them.', run: async () => ({ data: {} }) };

describe('renderHelp of a group', () => {
  it('shows the options and examples of a bare command that takes options of its own, and no empty command list', async () => {
    const group = defineGroup({ name: 'serve', description: 'A server.', children: { inner }, bare: bareWithFlags });
    const text = await renderHelp(group, ['serve']);
    expect(text).toContain('Usage: gflow serve [OPTIONS]\n  Serve until stopped.');
    expect(text).toMatch(/--pools POOLS\s+The pools it serves\./);
    expect(text).toContain('  gflow serve --pools a=b');
    // Its only child is hidden: no "Commands:" heading and no pointer to subcommands.
    expect(text).not.toContain('Commands:');
    expect(text).not.toContain('<command>');
  });

  it('keeps the plain group help when the bare command has no options of its own', async () => {
    const group = defineGroup({ name: 'auth', description: 'Profiles.', children: { shown }, bare: bareWithout });
    const text = await renderHelp(group, ['auth']);
    expect(text).toContain('Usage: gflow auth <command> [OPTIONS]');
    expect(text).toMatch(/Commands:\n {2}shown\s+A listed command\./);
    expect(text).not.toContain('Options:');
    expect(text).toContain("Run 'gflow auth <command> --help'");
  });
});
