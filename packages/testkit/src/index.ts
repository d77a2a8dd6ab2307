// @gflow/testkit: the one test kit (docs/TESTING.md). This root entry is pure: no browser and no
// child process, so the tests beside the code may use it. The heavy parts have their own subpaths:
// ./mcp (MCP clients, in process or over HTTP), ./cli (the gflow binary and other child
// processes), ./browser (Chromium against the simulator), ./sandbox (journeys: gflow --sandbox
// children attached to a simulator in the test process).
export { useStarted, type Closable } from '@gflow/tooling/useStarted';
export { waitFor } from './waitFor.js';
export { json, jsonLines, type CliResult } from './output.js';
export { filesUnder, removeDir, tempDir } from './tempDir.js';
export {
  HOSTILE_PROMPT,
  HOSTILE_PROMPT_SHOWN,
  HOSTILE_YAML,
  type HostileYaml,
  hostileYamlFuzz,
  prng,
} from './hostile.js';
