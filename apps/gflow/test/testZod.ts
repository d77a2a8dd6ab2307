// zod for the tests' own schemas: @gflow/app does not declare zod, so this takes
// the copy @gflow/core validates with (the same version the operation schemas use).
export { z } from '../../../packages/core/node_modules/zod/index.js';
