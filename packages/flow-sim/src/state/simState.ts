import { randomBytes } from 'node:crypto';
import type { LatencySetting, SimLocale, UrlDelay } from '../types.js';
import { newAccount, normalizeEmail } from './accounts.js';
import type { Account } from './accounts.js';
import { FailureBoard } from './failures.js';
import { latencyScale, TIMINGS, urlGapMs } from './latency.js';
import { Library } from './library.js';
import { SeededRandom } from './random.js';
import { ReceivedLog } from './received.js';
import { SceneStore } from './scenes.js';
import { SessionSigner } from './sessions.js';
import { type Variants, checkVariants, defaultVariants } from '../variants.js';
import { type DriftName, checkDrift } from '../drift.js';

export interface SimStateInit {
  seed: string;
  latency: LatencySetting;
  locale: SimLocale;
  secret?: string;
  variants?: Partial<Variants>;
  urlDelay?: UrlDelay;
  drift?: readonly string[];
}

/** Everything the simulator knows; the scenario API and the hosts read and write it. */
export class SimState {
  readonly startedAt = Date.now();
  readonly seed: string;
  readonly random: SeededRandom;
  readonly accounts = new Map<string, Account>();
  readonly failures = new FailureBoard();
  readonly received = new ReceivedLog();
  readonly library: Library;
  /** Scenes and their timelines (in memory only: not in `dataDir`). */
  readonly scenes: SceneStore;
  readonly signer: SessionSigner;
  readonly secret: string;
  readonly controlToken = randomBytes(18).toString('base64url');
  latency: LatencySetting;
  scale: number;
  /** Whether a clip's URL gap follows the latency setting (latency.ts `UrlDelay`). */
  urlDelay: UrlDelay;
  locale: SimLocale;
  urlTtlSeconds = 6 * 3600;
  /** The variant switches (variants.ts): defaults follow the captures. */
  readonly variants: Variants = defaultVariants();
  /** The drift switches on (drift.ts): none by default. */
  drift: DriftName[] = [];
  /** Called after every change that persistence should save. */
  onChange: () => void = () => undefined;

  constructor(init: SimStateInit) {
    this.seed = init.seed;
    this.random = new SeededRandom(init.seed);
    this.library = new Library(this.random);
    this.scenes = new SceneStore(this.random);
    this.secret = init.secret ?? randomBytes(24).toString('base64url');
    this.signer = new SessionSigner(this.secret);
    this.latency = init.latency;
    this.scale = latencyScale(init.latency);
    this.urlDelay = init.urlDelay ?? 'scaled';
    this.locale = init.locale;
    Object.assign(this.variants, checkVariants(init.variants ?? {}));
    this.drift = checkDrift(init.drift ?? []);
  }

  /** A Flow timing (or a raw millisecond value) scaled by the latency setting. */
  ms(timing: keyof typeof TIMINGS | number): number {
    const base = typeof timing === 'number' ? timing : TIMINGS[timing];
    return Math.round(base * this.scale);
  }

  /** One URL gap for every clip while set (Scenario.pinUrlGap: a test and bench control). */
  pinnedUrlGap: number | null = null;

  /** Clips submitted while set keep their URLs back until released (Scenario.holdVideoUrls: a test control). */
  urlsHeld = false;

  /** How long after status 3 a clip's signed URLs exist: a measured 2–8 s draw, then `urlDelay` (or the pinned gap). */
  urlGap(): number {
    if (this.urlsHeld) return HELD_URL_GAP;
    if (this.pinnedUrlGap !== null) return this.pinnedUrlGap;
    return this.drawUrlGap();
  }

  /** A URL gap drawn as a clip's is: a measured 2–8 s draw (flow-captures.md §4), then `urlDelay`. */
  drawUrlGap(): number {
    const measured = this.random.int(TIMINGS.urlAfterDoneMin, TIMINGS.urlAfterDoneMax);
    return urlGapMs(measured, this.urlDelay, this.scale, this.ms('pollInterval'));
  }

  account(email: string | null): Account | undefined {
    if (email === null) return undefined;
    return this.accounts.get(email.toLowerCase());
  }

  /** Sign-in with an unknown address creates the account with defaults. */
  ensureAccount(email: string): Account {
    const key = normalizeEmail(email);
    const existing = this.accounts.get(key);
    if (existing !== undefined) return existing;
    const created = newAccount({ email: key });
    this.accounts.set(key, created);
    this.onChange();
    return created;
  }
}

/** The URL gap of a clip submitted while URLs are held: later than any run (Scenario.releaseVideoUrls ends it). */
export const HELD_URL_GAP = Number.MAX_SAFE_INTEGER;
