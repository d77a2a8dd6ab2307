import { loadOperations } from '@gflow/core/surfaces';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ListedTool, STRUCTURE, commandFindings, optionFindings } from '../src/checkStructure.js';
import { type CliLeaf, walkFullTree } from '../src/cliTree.js';
import { listMcpTools } from '../src/listMcpTools.js';

// Every operation, loaded (the surfaces' registry loads them on demand).
const OPERATIONS = await loadOperations();

let leaves: CliLeaf[];
let tools: ListedTool[];
const operationTools = Object.fromEntries(OPERATIONS.map((op) => [op.name, op.mcpName]));

beforeAll(async () => {
  [leaves, tools] = await Promise.all([walkFullTree(), listMcpTools()]);
}, 60_000);

describe('CLI ↔ MCP structure', () => {
  it('walks the full tree the binary exposes, bare groups and the app commands included', () => {
    const paths = leaves.map((l) => l.path);
    expect(paths).toEqual(
      expect.arrayContaining(['auth', 'mcp run', 'serve', 'mcp setup', 'data list projects', 'models']),
    );
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('lists the tools through a real MCP client, spending tools included', () => {
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['gflow_generate_image', 'gflow_generate_video', 'gflow_list_models']),
    );
  });

  it('every command is mapped to a registered tool or exempt with a reason (not both); no stale entry', () => {
    expect(commandFindings(leaves, tools, operationTools)).toEqual([]);
  });

  it('every parameter of a mapped command is a tool parameter (after renames) or exempt', () => {
    expect(optionFindings(leaves, tools)).toEqual([]);
  });
});

describe('the structural checks bite', () => {
  const without = (record: Readonly<Record<string, string>>, key: string) =>
    Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));

  it('an unmapped command, a double entry and stale entries are findings', () => {
    const data = {
      ...STRUCTURE,
      CLI_TO_MCP: {
        ...without(STRUCTURE.CLI_TO_MCP, 'models'),
        'auth login': 'gflow_auth_status',
        'image paint': 'gflow_generate_image',
        'tools list': 'gflow_no_such_tool',
      },
      MCP_EXEMPT: { ...STRUCTURE.MCP_EXEMPT, 'video splice': 'an exemption for a command that does not exist' },
    };
    const findings = commandFindings(leaves, tools, operationTools, data).join('\n');
    expect(findings).toContain("'gflow models' is neither mapped");
    expect(findings).toContain("'gflow auth login' is both mapped and exempt");
    expect(findings).toContain("stale CLI_TO_MCP entry: 'gflow image paint'");
    expect(findings).toContain('gflow_no_such_tool, which the MCP server does not register');
    expect(findings).toContain("stale MCP_EXEMPT entry: 'gflow video splice'");
    expect(findings).toContain(
      "'gflow auth login' runs authLogin (gflow_auth_login) but is mapped to gflow_auth_status",
    );
    expect(findings).toContain('gflow_list_models is registered but no command maps to it');
  });

  it('a tool with neither a command nor an MCP_ONLY reason is a finding, and so is a stale MCP_ONLY entry', () => {
    const { 'data usage': _dropped, ...withoutUsage } = STRUCTURE.CLI_TO_MCP;
    const findings = commandFindings(leaves, tools, operationTools, {
      ...STRUCTURE,
      CLI_TO_MCP: withoutUsage,
      MCP_ONLY: { gflow_retired_tool: 'kept for a tool that was removed' },
    }).join('\n');
    expect(findings).toContain('gflow_usage_stats is registered but no command maps to it');
    expect(findings).toContain('stale MCP_ONLY entry: gflow_retired_tool');
  });

  it('a missing option, a broken rename and stale option entries are findings', () => {
    const data = {
      ...STRUCTURE,
      OPTION_RENAMES: without(STRUCTURE.OPTION_RENAMES, 'disabled'),
      LEAF_OPTION_RENAMES: {
        ...STRUCTURE.LEAF_OPTION_RENAMES,
        'instructions apply:file': 'card_list',
        'models:ghost': 'x',
      },
      OPTION_EXEMPT: { ...STRUCTURE.OPTION_EXEMPT, 'image t2i:count': 'count is a tool parameter, so this is stale' },
    };
    const findings = optionFindings(leaves, tools, data).join('\n');
    expect(findings).toContain(
      "'gflow instructions add' parameter disabled is not a parameter of gflow_instructions_add",
    );
    expect(findings).toContain("LEAF_OPTION_RENAMES['instructions apply:file'] names card_list");
    expect(findings).toContain("stale LEAF_OPTION_RENAMES entry 'models:ghost'");
    expect(findings).toContain("stale OPTION_EXEMPT entry 'image t2i:count'");
  });
});
