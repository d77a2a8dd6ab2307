import fs from 'node:fs';

/** Pids of live (non-zombie) processes whose command line mentions `needle` (Linux /proc). */
export function processesMentioning(needle: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const state = /^State:\s+(\S)/m.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
        return state !== 'Z' && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}
