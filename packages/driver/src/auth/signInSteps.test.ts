import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { STEP_TRIES, SignInSteps } from './signInSteps.js';

/**
 * A page on Flow's public /about landing whose CTA click fails `failures` times (a click that
 * timed out on a busy machine) before it lands; it counts the clicks asked for.
 */
function aboutPage(failures: number): { page: Page; clicks: () => number } {
  let clicks = 0;
  const cta = {
    first: () => cta,
    click: async () => {
      clicks += 1;
      if (clicks <= failures) throw new Error('locator.click: Timeout 3000ms exceeded.');
    },
  };
  const page = { url: () => 'https://flow.google.com/about', locator: () => cta } as unknown as Page;
  return { page, clicks: () => clicks };
}

const autofill = { email: 'ada@example.com', password: 'pw' };

describe('the sign-in steps', () => {
  it('a step that failed is tried again on the next pass; once it lands it is not repeated', async () => {
    const { page, clicks } = aboutPage(1);
    const steps = new SignInSteps(autofill.email, autofill);
    await steps.step(page);
    expect(clicks()).toBe(1);
    await steps.step(page);
    expect(clicks()).toBe(2);
    await steps.step(page);
    await steps.step(page);
    expect(clicks(), 'the second click landed: the page is left to the person from then on').toBe(2);
  });

  it(`a step that keeps failing is given up after ${STEP_TRIES} tries on that page`, async () => {
    const { page, clicks } = aboutPage(Number.POSITIVE_INFINITY);
    const steps = new SignInSteps(autofill.email, autofill);
    for (let pass = 0; pass < STEP_TRIES + 3; pass += 1) await steps.step(page);
    expect(clicks()).toBe(STEP_TRIES);
  });
});
