/** GFLOW_CLI_BROWSER_EXECUTABLE when it exists, else the first system Chrome/Chromium; undefined when none. */
export declare function findChromium(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): string | undefined;
