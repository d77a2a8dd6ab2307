import { defineGflowVitest } from '@gflow/tooling/vitest';

// Journeys drive real processes, browsers and one simulator per file, each in a home of its own:
// two files at a time on the 2-core machine (most of a journey is waiting on the simulator and
// the browser), each test with a generous timeout of its own.
export default defineGflowVitest({
  maxWorkers: 2,
  testTimeout: 180_000,
  hookTimeout: 180_000,
});
