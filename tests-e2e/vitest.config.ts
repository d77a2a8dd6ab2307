import { defineGflowVitest } from '@gflow/tooling/vitest';

// Journeys drive real processes, browsers and one simulator per file: files
// run one after another (the CI machine has 2 cores), each test with a
// generous timeout of its own.
export default defineGflowVitest({
  fileParallelism: false,
  testTimeout: 120_000,
  hookTimeout: 90_000,
});
