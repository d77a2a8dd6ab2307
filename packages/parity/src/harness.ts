import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { cliDriver } from './drivers/cliDriver.js';
import { type SurfaceHome, baseSettings } from './drivers/environment.js';
import { libraryDriver } from './drivers/libraryDriver.js';
import { mcpHttpDriver, mcpStdioDriver } from './drivers/mcpDriver.js';
import type { SurfaceDriver } from './drivers/outcome.js';
import type { SurfaceName } from './requirements.js';
import { type DriverSource, activateSuite, isCollecting } from './verifies.js';

export interface SurfaceSuiteOptions {
  /** Names the suite in registrations and the temp dir. */
  readonly name: string;
  /** GFLOW_* settings for every surface (library env, CLI and server processes). */
  readonly settings?: Readonly<Record<string, string>>;
  /** Prepares the home before any surface starts (a seeded or damaged catalog, profiles). */
  readonly seed?: (where: SurfaceHome) => void | Promise<void>;
  /** Extra arguments for `gflow mcp run` and `gflow serve` (e.g. --no-spend). */
  readonly serverArgs?: readonly string[];
}

export interface SurfaceSuite extends DriverSource {
  /** The home, once beforeAll has made it. */
  readonly where: () => SurfaceHome;
}

/**
 * One temp GFLOW_CLI_HOME per test file, seeded once; each surface starts on
 * first use (the MCP servers once per file, not per test) and everything is
 * closed after the file. Later `verifies` calls in the file use this suite.
 */
export function useSurfaces(options: SurfaceSuiteOptions): SurfaceSuite {
  let where: SurfaceHome | undefined;
  const drivers = new Map<SurfaceName, Promise<SurfaceDriver>>();
  const start = (surface: SurfaceName, home: SurfaceHome): Promise<SurfaceDriver> => {
    switch (surface) {
      case 'library':
        return Promise.resolve(libraryDriver(home));
      case 'cli':
        return Promise.resolve(cliDriver(home));
      case 'mcp-stdio':
        return mcpStdioDriver(home, options.serverArgs);
      case 'mcp-http':
        return mcpHttpDriver(home, options.serverArgs);
    }
  };
  const suite: SurfaceSuite = {
    name: options.name,
    where: () => {
      if (!where) throw new Error(`suite ${options.name}: the home is made in beforeAll`);
      return where;
    },
    driver(surface) {
      const home = suite.where();
      let driver = drivers.get(surface);
      if (!driver) {
        driver = start(surface, home);
        drivers.set(surface, driver);
      }
      return driver;
    },
  };
  activateSuite(suite);
  if (isCollecting()) return suite;
  beforeAll(async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), `gflow-parity-${options.name}-`));
    const outputDir = path.join(home, 'out');
    fs.mkdirSync(outputDir, { recursive: true });
    where = { home, outputDir, settings: baseSettings(home, options.settings) };
    await options.seed?.(where);
  }, 60_000);
  afterAll(async () => {
    const started = [...drivers.values()];
    drivers.clear();
    for (const driver of await Promise.allSettled(started))
      if (driver.status === 'fulfilled') await driver.value.close();
    if (where) fs.rmSync(where.home, { recursive: true, force: true });
  }, 60_000);
  return suite;
}
