// The caps of runs of many steps, in a module of their own: the CLI states them in its help and
// checks its files against them without loading the batch and chain operations.

/** The most prompts one run takes (the original's ceiling). */
export const MAX_BATCH_ITEMS = 50;

/** The longest chain gflow makes (a safety cap; `max_links` lowers it). */
export const MAX_CHAIN_LINKS = 20;
