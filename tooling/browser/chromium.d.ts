export { findChromium } from './findChromium.js';
/** Flags of every browser a test launches: no sandbox as root, no background traffic, no first run. */
export declare const TEST_BROWSER_FLAGS: readonly string[];
/** The Chrome/Chromium the tests use (findChromium); throws with what to do when there is none. */
export declare function chromiumExecutable(): string;
/** The setting that hands the tests' browser to a gflow runtime or child (core finds none by itself then). */
export declare function browserSetting(): { GFLOW_CLI_BROWSER_EXECUTABLE: string };
/**
 * For a test file that proves what only the full browser does (Chrome's own profile lock, which the
 * headless shell does not take): the file's browsers are then the full Chrome/Chromium. Call it at
 * the top of the file, before anything launches.
 */
export declare function useFullBrowser(): void;
