/** The Debian package of the headless shell (the bootstrap installs it beside chromium, as root). */
export declare const HEADLESS_SHELL_PACKAGE: string;
/** The first system Chrome/Chromium (the full browser, as gflow itself would find one); undefined when none. */
export declare function findFullChromium(
  platform?: NodeJS.Platform,
  exists?: (file: string) => boolean,
): string | undefined;
/** Chromium's headless shell when installed; undefined when not. */
export declare function findHeadlessShell(
  platform?: NodeJS.Platform,
  exists?: (file: string) => boolean,
): string | undefined;
/**
 * The tests' browser: GFLOW_CLI_BROWSER_EXECUTABLE when it exists (undefined when it does not),
 * else the headless shell unless GFLOW_TEST_BROWSER=full, else the first system Chrome/Chromium;
 * undefined when none. `exists` is the file check (tests pass their own).
 */
export declare function findChromium(
  env?: NodeJS.ProcessEnv,
  platform?: NodeJS.Platform,
  exists?: (file: string) => boolean,
): string | undefined;
