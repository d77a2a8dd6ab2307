import type { CatalogContext } from '../context.js';
import type { ProfilesRepo } from './profilesRepo.js';
import { assertProfileName } from '../validation.js';

export type ChainStatus = 'running' | 'completed' | 'failed';

/** A video chain row with its JSON columns parsed (the shapes are core's). */
export interface ChainRecord {
  readonly chainId: string;
  readonly profile: string;
  readonly status: ChainStatus;
  readonly spec: Readonly<Record<string, unknown>>;
  readonly state: Readonly<Record<string, unknown>>;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface ChainsRepo {
  create(input: {
    chainId: string;
    profile: string;
    spec: Record<string, unknown>;
    state: Record<string, unknown>;
  }): ChainRecord;
  get(chainId: string): ChainRecord | undefined;
  /** Writes the chain's progress (after every link, so a crash loses at most the link in flight). */
  update(chainId: string, patch: { status?: ChainStatus; state: Record<string, unknown> }): ChainRecord;
  /** Newest first. */
  list(options?: { profile?: string; limit?: number }): ChainRecord[];
}

interface RawChain {
  chainId: string;
  profile: string;
  status: ChainStatus;
  specJson: string;
  stateJson: string;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS =
  'chain_id AS chainId, profile_name AS profile, status, spec_json AS specJson, state_json AS stateJson, created_at AS createdAt, updated_at AS updatedAt';

const toRecord = (row: RawChain): ChainRecord => ({
  chainId: row.chainId,
  profile: row.profile,
  status: row.status,
  spec: JSON.parse(row.specJson) as Record<string, unknown>,
  state: JSON.parse(row.stateJson) as Record<string, unknown>,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export function createChainsRepo(ctx: CatalogContext, profiles: ProfilesRepo): ChainsRepo {
  const insert = ctx.db.prepare(
    `INSERT INTO video_chains (chain_id, profile_name, status, spec_json, state_json, created_at, updated_at)
     VALUES (@chainId, @profile, 'running', @spec, @state, @now, @now) RETURNING ${COLUMNS}`,
  );
  const get = ctx.db.prepare(`SELECT ${COLUMNS} FROM video_chains WHERE chain_id = ?`);
  const update = ctx.db.prepare(
    `UPDATE video_chains SET status = coalesce(@status, status), state_json = @state, updated_at = @now
     WHERE chain_id = @chainId RETURNING ${COLUMNS}`,
  );
  const list = ctx.db.prepare(
    `SELECT ${COLUMNS} FROM video_chains WHERE (@profile IS NULL OR profile_name = @profile)
     ORDER BY created_at DESC, chain_id DESC LIMIT @limit`,
  );
  return {
    create(input) {
      assertProfileName(input.profile);
      profiles.touch(input.profile);
      const row = insert.get({
        chainId: input.chainId,
        profile: input.profile,
        spec: JSON.stringify(input.spec),
        state: JSON.stringify(input.state),
        now: ctx.now(),
      }) as RawChain;
      return toRecord(row);
    },
    get(chainId) {
      const row = get.get(chainId) as RawChain | undefined;
      return row === undefined ? undefined : toRecord(row);
    },
    update(chainId, patch) {
      const row = update.get({
        chainId,
        status: patch.status ?? null,
        state: JSON.stringify(patch.state),
        now: ctx.now(),
      }) as RawChain | undefined;
      if (row === undefined) throw new Error(`no video chain ${chainId}`);
      return toRecord(row);
    },
    list(options = {}) {
      return (list.all({ profile: options.profile ?? null, limit: options.limit ?? 50 }) as RawChain[]).map(toRecord);
    },
  };
}
