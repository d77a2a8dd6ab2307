import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
  engines: { node: string };
};

/** The version of the gflow app (its package.json), read once. */
export const GFLOW_VERSION: string = manifest.version;

/** The Node versions the app supports: its package.json's engines.node. */
export const GFLOW_NODE_RANGE: string = manifest.engines.node;
