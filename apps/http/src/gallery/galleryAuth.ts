import { randomBytes } from 'node:crypto';
import { tokensMatch } from '../bearerAuth.js';

/** The gallery's session cookie. */
export const SESSION_COOKIE = 'gflow_gallery';
/** A one-time login code is good for this long. */
export const LOGIN_CODE_TTL_MS = 5 * 60_000;
/** A gallery session lasts this long. */
export const SESSION_TTL_MS = 12 * 3_600_000;

const secret = (): string => randomBytes(32).toString('base64url');

/**
 * Browser sign-in for a daemon with GFLOW_DAEMON_TOKEN (a browser cannot send a bearer header):
 * a caller holding the token mints a one-time login code; opening /login?code=… spends it and
 * sets an HttpOnly, SameSite=Strict session cookie. Codes and sessions live in this process only,
 * so a restart signs everyone out.
 */
export class GallerySessions {
  readonly #codes = new Map<string, number>();
  readonly #sessions = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A fresh one-time code. */
  mintCode(): string {
    this.#sweep();
    const code = secret();
    this.#codes.set(code, this.#now() + LOGIN_CODE_TTL_MS);
    return code;
  }

  /** Spends a code: a new session id, or undefined for an unknown, used or expired code. */
  redeem(code: string): string | undefined {
    this.#sweep();
    for (const [known, expires] of this.#codes) {
      if (!tokensMatch(code, known)) continue;
      this.#codes.delete(known);
      if (expires < this.#now()) return undefined;
      const session = secret();
      this.#sessions.set(session, this.#now() + SESSION_TTL_MS);
      return session;
    }
    return undefined;
  }

  /** Whether a session id is live. */
  valid(session: string | undefined): boolean {
    if (!session) return false;
    const expires = this.#sessions.get(session);
    if (expires === undefined) return false;
    if (expires < this.#now()) {
      this.#sessions.delete(session);
      return false;
    }
    return true;
  }

  end(session: string | undefined): void {
    if (session) this.#sessions.delete(session);
  }

  #sweep(): void {
    const now = this.#now();
    for (const [code, expires] of this.#codes) if (expires < now) this.#codes.delete(code);
    for (const [session, expires] of this.#sessions) if (expires < now) this.#sessions.delete(session);
  }
}
