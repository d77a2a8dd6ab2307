import type { DriverLogger } from '../util/logger.js';
import type { LoginStrategy } from '@gflow/flow-facts';

/** Where a login starts (flow-wire §2 "Login"): labs answers 308 to flow.google.com for every account. */
export const LOGIN_URL = 'https://labs.google/fx/tools/flow?hl=en';

export interface LoginOptions {
  readonly profileDir: string;
  readonly strategy: LoginStrategy;
  /** The browser to run: 'chrome' defaults to the system Chrome; 'internal' to Playwright's channel resolution. */
  readonly executablePath?: string;
  readonly extraArgs?: readonly string[];
  readonly ignoreHTTPSErrors?: boolean;
  readonly timeoutMs: number;
  /** The account that must end up signed in (`--account`); its chooser row is clicked. */
  readonly expectedAccount?: string;
  readonly signal?: AbortSignal;
  /** Fills Google's sign-in form (tests and the sandbox only). */
  readonly autofill?: { readonly email: string; readonly password?: string };
  /** 'internal' only: run without a window (tests). Default false: a person signs in. */
  readonly headless?: boolean;
  readonly logger?: DriverLogger;
}

export interface LoginResult {
  readonly email: string;
  readonly strategy: LoginStrategy;
}
