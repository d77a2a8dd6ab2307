import { describe, expect, it } from 'vitest';
import { type FlagsOf, invocationOf, runnableText } from './followUps.js';

/** A tree of two commands: `task wait` takes --sandbox only, `data download` --profile too. */
const flagsOf: FlagsOf = async (words) => {
  const path = words.slice(0, 2).join(' ');
  if (path === 'task wait') return new Set(['sandbox', 'json', 'timeout']);
  if (path === 'data download') return new Set(['sandbox', 'json', 'profile', 'out']);
  return undefined;
};

describe('follow-up commands run as printed (issue 41)', () => {
  it('carry --sandbox and --profile where the command takes them', async () => {
    const invocation = invocationOf({ sandbox: true, profile: 'work' });
    expect(await runnableText("Follow it with 'gflow task wait 6f1c'.", invocation, flagsOf)).toBe(
      "Follow it with 'gflow task wait 6f1c --sandbox'.",
    );
    expect(
      await runnableText("fetch it with 'gflow data download m-1' (gflow_download_media), free", invocation, flagsOf),
    ).toBe("fetch it with 'gflow data download m-1 --profile work --sandbox', free");
  });

  it('leave alone what is said already, the default profile, unknown commands and text without commands', async () => {
    const plain = invocationOf({ sandbox: false, profile: 'default' });
    expect(await runnableText("'gflow data download m-1'", plain, flagsOf)).toBe("'gflow data download m-1'");
    const both = invocationOf({ sandbox: true, profile: 'work' });
    expect(await runnableText("'gflow data download m-1 --profile=x --sandbox'", both, flagsOf)).toBe(
      "'gflow data download m-1 --profile=x --sandbox'",
    );
    expect(await runnableText("run 'gflow nonsense here'", both, flagsOf)).toBe("run 'gflow nonsense here'");
    expect(await runnableText('no command here', both, flagsOf)).toBe('no command here');
    expect(await runnableText('`gflow task wait 1` and `gflow task wait 2`', both, flagsOf)).toBe(
      '`gflow task wait 1 --sandbox` and `gflow task wait 2 --sandbox`',
    );
  });
});
