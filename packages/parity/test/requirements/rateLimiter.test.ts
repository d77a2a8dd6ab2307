import { expect } from 'vitest';
import { codeOf } from '../../src/drivers/outcome.js';
import { expectFailure } from '../../src/expectOutcome.js';
import { useSurfaces } from '../../src/harness.js';
import { verifies } from '../../src/verifies.js';

// The spending brake of the MCP surfaces, with its shipped settings (8
// tokens, one back every 20 s). The home has no profile: a call that gets a
// token stops at profile resolution (no-profile), so nothing reaches a
// browser. Each server is one bucket for the whole file: the capacity check
// runs first, on a full bucket.
useSurfaces({ name: 'rate-limit' });

const VALID = { prompt: 'a red fox in fresh snow' };
const INVALID = { prompt: 'a red fox in fresh snow', count: 9 };

verifies('rate-limit.capacity', async (s) => {
  const codes: string[] = [];
  for (let i = 0; i < 9; i++) {
    const outcome = await s.call('generateImage', VALID);
    codes.push(outcome.ok ? 'ok' : codeOf(outcome.problem));
  }
  expect(codes).toEqual([...Array(8).fill('no-profile'), 'rate-limit']);
});

verifies('rate-limit.after-validation', async (s) => {
  // Empty the bucket (the capacity check may have already).
  for (let i = 0; i < 10; i++) {
    const outcome = await s.call('generateVideo', VALID);
    if (!outcome.ok && codeOf(outcome.problem) === 'rate-limit') break;
  }
  // Validation comes first: an invalid call is a bad parameter even with no token left.
  for (let i = 0; i < 3; i++)
    expectFailure(await s.call('generateImage', INVALID), { code: 'bad-parameter', status: 400 });
  expectFailure(await s.call('generateVideo', { ...VALID, ui_mode: 'agentic' }), {
    code: 'bad-parameter',
    status: 400,
  });
  // The token comes before profile resolution: a valid call is refused by the limiter, not for its missing profile.
  const outcome = await s.call('generateImage', { ...VALID, profile: 'nobody' });
  if (outcome.ok) throw new Error('a generation ran with an empty bucket');
  expect(outcome.status).toBe('rate_limited');
  expectFailure(outcome, { code: 'rate-limit', status: 429, retryable: true });
  expect(outcome.problem.detail).toMatch(/\d/);
});
