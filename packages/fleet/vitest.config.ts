import { defineGflowVitest } from '@gflow/tooling/vitest';

export default defineGflowVitest();
