// @gflow/parity: proves gflow's surfaces match. Private; curated exports.
export {
  REQUIREMENTS,
  SURFACE_NAMES,
  requirementById,
  type Requirement,
  type KnownGap,
  type SurfaceName,
} from './requirements.js';
export {
  CLI_TO_MCP,
  MCP_EXEMPT,
  MCP_ONLY,
  OPTION_RENAMES,
  LEAF_OPTION_RENAMES,
  DEFAULT_OPTION_EXEMPT,
  OPTION_EXEMPT,
} from './structure.js';
export {
  STRUCTURE,
  commandFindings,
  optionFindings,
  type ListedTool,
  type StructureData,
  type OperationTools,
} from './checkStructure.js';
export { coverageFindings, manifestFindings, gapCrossReferenceFindings } from './coverage.js';
export { fullCliTree, walkFullTree, type CliLeaf } from './cliTree.js';
export { listMcpTools } from './listMcpTools.js';
export { verifies, registrations, collectRegistrations, type Registration, type DriverSource } from './verifies.js';
export { useSurfaces, type SurfaceSuite, type SurfaceSuiteOptions } from './harness.js';
export { type SurfaceDriver, type CallOutcome, type Problem, codeOf, operationNamed } from './drivers/outcome.js';
export type { SurfaceHome } from './drivers/environment.js';
export { libraryDriver } from './drivers/libraryDriver.js';
export { cliDriver, runGflow, pickCommand, argvFor, NoCliCommandError, type CliRun } from './drivers/cliDriver.js';
export { mcpStdioDriver, mcpHttpDriver } from './drivers/mcpDriver.js';
export { expectFailure, expectOk, type ExpectedFailure } from './expectOutcome.js';
export { withCatalog, seedProjects, seedVideo, dropProjectsTable, addProfileWithoutMarker } from './seedHome.js';
