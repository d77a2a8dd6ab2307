// The tests' browser (tooling/browser/findChromium.js): the configured one wins, then Chromium's
// headless shell unless the full browser is asked for, then the system Chrome/Chromium.
import { describe, expect, it } from 'vitest';
import { findChromium, findFullChromium, findHeadlessShell } from '../browser/findChromium.js';

const SHELL = '/usr/bin/chromium-headless-shell';
const FULL = '/usr/bin/chromium';
const having =
  (...files) =>
  (file) =>
    files.includes(file);

describe('findChromium', () => {
  it('prefers the headless shell when both are installed', () => {
    expect(findChromium({}, 'linux', having(SHELL, FULL))).toBe(SHELL);
  });

  it('GFLOW_TEST_BROWSER=full picks the full browser even with the shell installed', () => {
    expect(findChromium({ GFLOW_TEST_BROWSER: 'full' }, 'linux', having(SHELL, FULL))).toBe(FULL);
  });

  it('falls back to the full browser without the shell, and to nothing without either', () => {
    expect(findChromium({}, 'linux', having(FULL))).toBe(FULL);
    expect(findChromium({}, 'linux', having())).toBeUndefined();
  });

  it('GFLOW_CLI_BROWSER_EXECUTABLE wins when it exists and finds nothing when it does not', () => {
    const env = { GFLOW_CLI_BROWSER_EXECUTABLE: '/opt/chrome/chrome' };
    expect(findChromium(env, 'linux', having('/opt/chrome/chrome', SHELL, FULL))).toBe('/opt/chrome/chrome');
    expect(findChromium(env, 'linux', having(SHELL, FULL))).toBeUndefined();
  });

  it('the shell and the full browser are found apart (the bootstrap installs whichever is missing)', () => {
    expect(findHeadlessShell('linux', having(FULL))).toBeUndefined();
    expect(findFullChromium('linux', having(SHELL))).toBeUndefined();
    expect(findHeadlessShell('darwin', having(SHELL))).toBeUndefined();
  });
});
