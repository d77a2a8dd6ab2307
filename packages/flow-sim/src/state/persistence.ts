import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Account } from './accounts.js';
import { migrateBrief } from './brief.js';
import type { Media, Project } from './library.js';
import type { SimState } from './simState.js';

interface Snapshot {
  version: 1;
  secret: string;
  accounts: Account[];
  projects: Project[];
  media: (Omit<Media, 'bytes'> & { bytes?: string })[];
}

export function readSecret(dataDir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dataDir, 'flow-sim.json'), 'utf8')) as Snapshot).secret;
  } catch {
    return undefined;
  }
}

/** Loads a saved snapshot (if any) into `state`. */
export function loadState(state: SimState, dataDir: string): void {
  let snap: Snapshot;
  try {
    snap = JSON.parse(readFileSync(join(dataDir, 'flow-sim.json'), 'utf8')) as Snapshot;
  } catch {
    return;
  }
  for (const a of snap.accounts) state.accounts.set(a.email, a);
  for (const p of snap.projects) {
    migrateBrief(state.random, p);
    state.library.projects.set(p.id, p);
  }
  for (const m of snap.media) {
    const { bytes, ...rest } = m;
    state.library.restore(bytes === undefined ? rest : { ...rest, bytes: Buffer.from(bytes, 'base64') });
  }
}

/** Saves the state at most every 200 ms (atomic rename). */
export function persistTo(state: SimState, dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  let timer: NodeJS.Timeout | undefined;
  const save = (): void => {
    timer = undefined;
    const snap: Snapshot = {
      version: 1,
      secret: state.secret,
      accounts: [...state.accounts.values()],
      projects: [...state.library.projects.values()],
      media: [...state.library.media.values()].map((m) => ({
        ...m,
        bytes: m.bytes?.toString('base64'),
      })) as Snapshot['media'],
    };
    const file = join(dataDir, 'flow-sim.json');
    writeFileSync(`${file}.tmp`, JSON.stringify(snap));
    renameSync(`${file}.tmp`, file);
  };
  state.onChange = () => {
    timer ??= setTimeout(save, 200);
  };
  return () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      save();
    }
  };
}
