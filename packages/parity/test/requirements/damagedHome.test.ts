import { waitFor } from '@gflow/testkit';
import { expect } from 'vitest';
import { expectFailure } from '../../src/expectOutcome.js';
import { useSurfaces } from '../../src/harness.js';
import { addProfileWithoutMarker, dropProjectsTable } from '../../src/seedHome.js';
import { verifies } from '../../src/verifies.js';

// A home in bad shape: the catalog lost its projects table behind gflow's
// back (SQLite then throws its own error), and a profile lost its
// .gflow_browser_strategy marker (as a failed first login leaves it).
useSurfaces({
  name: 'damaged',
  seed: async (where) => {
    await dropProjectsTable(where);
    addProfileWithoutMarker(where, 'nomarker');
  },
});

verifies('errors.unexpected-masked', async (s) => {
  const outcome = await s.call('listProjects', {});
  const problem = expectFailure(outcome, { code: 'unknown', status: 500, exit: 1, retryable: false });
  expect(problem.detail).toBe('Unexpected SqliteError; details were logged to logs/errors.log in the gflow home.');
  const wire = JSON.stringify(outcome.ok ? outcome.result : outcome.reply);
  expect(wire).not.toMatch(/no such table/i);
  expect(wire).not.toContain(s.home);
  // A server logs the error beside its reply: the line may land a moment after the reply does.
  if (s.serverLog() !== undefined) {
    const log = await waitFor('the server to log the masked error', () =>
      s.serverLog()?.includes('mcp.tool.unexpected_error') ? s.serverLog() : undefined,
    );
    expect(log).toMatch(/no such table: projects/);
  }
});

verifies('auth-status.marker-missing', async (s) => {
  const problem = expectFailure(await s.call('authStatus', { profile: 'nomarker' }), {
    code: 'profile-marker-missing',
    status: 409,
    exit: 1,
    retryable: false,
  });
  expect(problem.remediation_hint).toContain('gflow auth login --browser chrome');
});
