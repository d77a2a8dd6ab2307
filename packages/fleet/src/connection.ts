import { type NodePgDatabase, drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { type FleetSchema, fleetSchema } from './schema/fleetTables.js';

/** The fleet's database through drizzle's pg dialect (node-postgres underneath). */
export type FleetDb = NodePgDatabase<FleetSchema>;
/** A transaction of {@link FleetDb}. */
export type FleetTx = Parameters<Parameters<FleetDb['transaction']>[0]>[0];

/** A pool on the fleet's URL and drizzle over it; `pool.end()` closes it. */
export function openFleetDb(url: string, max: number): { pool: pg.Pool; db: FleetDb } {
  const pool = new pg.Pool({ connectionString: url, max, application_name: 'gflow-fleet' });
  // A connection the server dropped (a restart) is replaced on the next query; the pool must not crash the process.
  pool.on('error', () => undefined);
  return { pool, db: drizzle({ client: pool, schema: fleetSchema }) };
}
