/** A throw-away PostgreSQL cluster of one test file. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  readonly url: string;
  readonly port: number;
  /** The cluster's temp directory (data, socket, server.log). */
  readonly dir: string;
  /** A database of its own on this server; answers its URL. */
  createDatabase(name: string): Promise<string>;
  /** The server's log so far. */
  log(): string;
  /** Stops the server (immediate mode) and removes its directory. */
  close(): Promise<void>;
}
/** GFLOW_TEST_PG_BIN, else the newest /usr/lib/postgresql/<major>/bin, else `pg_config --bindir`; undefined when none holds initdb and pg_ctl. */
export declare function findPostgresBin(env?: NodeJS.ProcessEnv): string | undefined;
/** The server binaries the tests use; throws with what to do when there are none. */
export declare function postgresBin(): string;
/** initdb in a temp directory, the server on a free loopback port; as root the cluster runs as `postgres`. */
export declare function startPostgres(options?: { bin?: string; port?: number }): Promise<TestPostgres>;
