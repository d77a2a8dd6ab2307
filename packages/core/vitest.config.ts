import { defineGflowVitest } from '@gflow/tooling/vitest';

// Two workers: most of a browser file's time is waiting on its own simulator and Chromium.
export default defineGflowVitest({ maxWorkers: 2 });
