import type { Page } from 'playwright-core';
import { AuthBrowserRejectedError } from '@gflow/errors';
import { flowLandingKind } from '../flow/hosts.js';

/** How many times one step is tried on one page URL before it is left to the person at the window. */
export const STEP_TRIES = 3;

/**
 * One pass over Google's sign-in pages by their standard structure (never translated labels):
 * the chooser row `[data-email="<email>"]`, the identifier `input[type=email]` + `#identifierNext`,
 * the password `input[type=password]` + `#passwordNext`, and Flow's /about CTA `button.cta-button`.
 * Each step acts at most once per page URL once it has succeeded, so a human can take over at any
 * point; a step whose action failed (a click that timed out on a busy machine) is tried again on a
 * later pass, at most {@link STEP_TRIES} times in all, instead of leaving the sign-in stuck on that
 * page until its deadline.
 */
export class SignInSteps {
  readonly #done = new Set<string>();
  readonly #failed = new Map<string, number>();

  constructor(
    private readonly wantedEmail: string | undefined,
    private readonly autofill: { readonly email: string; readonly password?: string } | undefined,
  ) {}

  /** Throws AuthBrowserRejectedError on Google's "browser rejected" page. */
  static checkRejected(url: string): void {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return;
    }
    if (u.hostname === 'accounts.google.com' && u.pathname.startsWith('/v3/signin/rejected')) {
      throw new AuthBrowserRejectedError(
        'Google refused this browser for sign-in (accounts.google.com/v3/signin/rejected).',
      );
    }
  }

  async step(page: Page): Promise<void> {
    const url = page.url();
    SignInSteps.checkRejected(url);
    let host = '';
    try {
      host = new URL(url).hostname;
    } catch {
      return;
    }
    if (host === 'accounts.google.com') await this.#onGoogle(page, url);
    else if (this.autofill !== undefined && flowLandingKind(url) === 'public')
      await this.#once(`cta ${url}`, () => page.locator('button.cta-button').first().click({ timeout: 3_000 }));
  }

  async #onGoogle(page: Page, url: string): Promise<void> {
    const emailInput = page.locator('input[type="email"]').first();
    const passwordInput = page.locator('input[type="password"]').first();
    if (this.autofill !== undefined && (await emailInput.isVisible().catch(() => false))) {
      const fill = this.autofill;
      await this.#once(`id ${url}`, async () => {
        await emailInput.fill(fill.email);
        await clickNext(page, '#identifierNext');
      });
      return;
    }
    if (this.autofill?.password !== undefined && (await passwordInput.isVisible().catch(() => false))) {
      const password = this.autofill.password;
      await this.#once(`pw ${url}`, async () => {
        await passwordInput.fill(password);
        await clickNext(page, '#passwordNext');
      });
      return;
    }
    if (this.wantedEmail === undefined || (await passwordInput.count().catch(() => 0)) > 0) return;
    const row = page.locator(`[data-email="${cssString(this.wantedEmail)}"]`).first();
    if (await row.isVisible().catch(() => false))
      await this.#once(`chooser ${url}`, () => row.click({ timeout: 3_000 }));
  }

  async #once(key: string, action: () => Promise<unknown>): Promise<void> {
    if (this.#done.has(key)) return;
    try {
      await action();
      this.#done.add(key);
    } catch {
      const failures = (this.#failed.get(key) ?? 0) + 1;
      this.#failed.set(key, failures);
      if (failures >= STEP_TRIES) this.#done.add(key);
    }
  }
}

async function clickNext(page: Page, container: string): Promise<void> {
  const next = page.locator(`${container} button, button${container}`).first();
  if (await next.isVisible().catch(() => false)) await next.click({ timeout: 3_000 });
  else await page.keyboard.press('Enter');
}

/** Escapes a value for a double-quoted CSS attribute selector. */
export function cssString(value: string): string {
  return value.replace(/["\\]/g, '\\$&');
}
