import { readFileSync } from 'node:fs';

/** The version of the gflow app (its package.json), read once. */
export const GFLOW_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
