// @gflow/testkit/postgres: a real PostgreSQL for the fleet's tests (no mocks, no PGlite). One
// throw-away cluster per test file, on the machine's own server binaries (@gflow/tooling/postgres:
// initdb in a temp directory, a free loopback port), started in beforeAll and removed in afterAll.
import { type TestPostgres, startPostgres } from '@gflow/tooling/postgres';
import { useStarted } from '@gflow/tooling/useStarted';

export { type TestPostgres, startPostgres, findPostgresBin } from '@gflow/tooling/postgres';

/** startPostgres in the file's beforeAll, stopped and removed in its afterAll. */
export function usePostgres(): TestPostgres {
  return useStarted('the PostgreSQL cluster', () => startPostgres());
}
