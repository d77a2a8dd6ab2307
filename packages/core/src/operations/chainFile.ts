import type { ChainLinkInput } from './chainOperation.js';

/**
 * `video chain FILE.jsonl` read into links (chainOperation's parser: one `{prompt, model?,
 * duration?, aspect?}` per line). Asynchronous because a link's schema is the chain operation's:
 * its module loads here, not with every command that imports the surfaces.
 */
export async function parseChainFile(text: string): Promise<ChainLinkInput[]> {
  return (await import('./chainOperation.js')).parseChainFile(text);
}
