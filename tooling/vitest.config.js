import { defineGflowVitest } from './vitest/preset.js';

export default defineGflowVitest({ include: ['test/**/*.test.js'] });
