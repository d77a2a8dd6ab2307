import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Stateless signed session values: the SID-family cookies carry `<email>|<generation>`
 * and an HMAC, so a persistent browser profile stays signed in for the life of the secret.
 */
export class SessionSigner {
  readonly #secret: string;

  constructor(secret: string) {
    this.#secret = secret;
  }

  mint(email: string, generation: number, purpose: string): string {
    const payload = Buffer.from(`${email}|${generation}`).toString('base64url');
    return `${payload}.${this.#mac(`${purpose}:${payload}`)}`;
  }

  read(value: string | undefined, purpose: string): { email: string; generation: number } | null {
    if (value === undefined) return null;
    const dot = value.lastIndexOf('.');
    if (dot <= 0) return null;
    const payload = value.slice(0, dot);
    const mac = Buffer.from(value.slice(dot + 1));
    const want = Buffer.from(this.#mac(`${purpose}:${payload}`));
    if (mac.length !== want.length || !timingSafeEqual(mac, want)) return null;
    const [email, gen] = Buffer.from(payload, 'base64url').toString('utf8').split('|');
    if (email === undefined || gen === undefined) return null;
    return { email, generation: Number(gen) };
  }

  sign(text: string): string {
    return this.#mac(`url:${text}`);
  }

  #mac(text: string): string {
    return createHmac('sha256', this.#secret).update(text).digest('base64url').slice(0, 27);
  }
}
