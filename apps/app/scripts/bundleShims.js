// Injected by scripts/build.mjs into the bundle modules that use this free identifier (only
// those): the directory helper import.meta.dirname is rewritten to.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const __gflowDirname = (url) => dirname(fileURLToPath(url));
