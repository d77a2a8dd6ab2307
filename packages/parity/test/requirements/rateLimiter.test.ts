import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { codeOf } from '../../src/drivers/outcome.js';
import { expectFailure } from '../../src/expectOutcome.js';
import { useSurfaces } from '../../src/harness.js';
import { verifies } from '../../src/verifies.js';

// The spending brake of the MCP surfaces, with its shipped settings (8
// tokens, one back every 20 s). A token is taken only by a call that passed
// every check that needs no browser (issue 27): the home has one profile,
// "brake", and the browser setting names no browser, so a call that gets a
// token stops when the job would launch one. Each server is one bucket for
// the whole file: the capacity check runs first, on a full bucket.
useSurfaces({
  name: 'rate-limit',
  settings: { GFLOW_CLI_BROWSER_EXECUTABLE: '/nonexistent/gflow-parity-browser' },
  seed: ({ home }) => {
    fs.mkdirSync(path.join(home, 'profile_brake'), { recursive: true, mode: 0o700 });
  },
});

const VALID = { prompt: 'a red fox in fresh snow', profile: 'brake' };
const INVALID = { prompt: 'a red fox in fresh snow', count: 9 };

verifies('rate-limit.capacity', async (s) => {
  const codes: string[] = [];
  for (let i = 0; i < 9; i++) {
    const outcome = await s.call('generateImage', VALID);
    codes.push(outcome.ok ? 'ok' : codeOf(outcome.problem));
  }
  expect(codes[8]).toBe('rate-limit');
  // The first eight took a token and failed past it, all the same way (no browser to launch).
  expect(new Set(codes.slice(0, 8)).size, codes.join(', ')).toBe(1);
  expect(codes[0]).not.toBe('rate-limit');
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
  // An unknown profile is refused for what it is, with no token left (it never needed one).
  expectFailure(await s.call('generateImage', { ...VALID, profile: 'nobody' }), { code: 'no-profile', status: 400 });
  // A call that passes every check is refused by the limiter.
  const outcome = await s.call('generateImage', VALID);
  if (outcome.ok) throw new Error('a generation ran with an empty bucket');
  expect(outcome.status).toBe('rate_limited');
  expectFailure(outcome, { code: 'rate-limit', status: 429, retryable: true });
  expect(outcome.problem.detail).toMatch(/\d/);
});
