import { defineGflowVitest } from '@gflow/tooling/vitest';

// Two workers: each browser test file runs one simulator and one Chromium; measured 65 s vs 119 s
// for part 1's suite on the 2-core machine, with no flakes.
export default defineGflowVitest({ maxWorkers: 2 });
