import type { UserConfig } from 'vitest/config';

export declare function defineGflowVitest(overrides?: NonNullable<UserConfig['test']>): UserConfig;
