import type { UserConfig } from 'vitest/config';

export declare const UNIT_TESTS: string[];
export declare const SUITE_TESTS: string[];
export declare const BROWSER_SUFFIX: string;
export declare function reportTo(name: string): NonNullable<UserConfig['test']>;
export declare const BASE_TEST_OPTIONS: NonNullable<UserConfig['test']>;
export declare function defineGflowVitest(overrides?: NonNullable<UserConfig['test']>): UserConfig;
