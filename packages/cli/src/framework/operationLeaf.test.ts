import { BadParameterError, ReferenceNotFoundError } from '@gflow/errors';
import { describe, expect, it } from 'vitest';
import { flag } from '../args/flagSpec.js';
import { withCliNames } from './operationLeaf.js';

const FLAGS = [flag({ key: 'out_dir', name: 'out', kind: 'string' }), flag({ key: 'aspect', kind: 'string' })];
const POSITIONALS = [{ key: 'prompt', name: 'PROMPT', required: true }];

/** A refusal shaped as core's badParameterFromZod makes it. */
const fromCore = (path: string[], message: string) =>
  new BadParameterError(`${path.join('.')}: ${message}`, {
    extensions: { parameter: path.join('.'), parameter_path: path, issues: [{ path: path.join('.'), message }] },
  });

describe('withCliNames: core validates once, the CLI names its own flags', () => {
  it('names the flag or the positional, keeps the exit code, the issues and the cause', () => {
    const renamed = withCliNames(fromCore(['out_dir'], 'Expected string'), FLAGS, POSITIONALS) as BadParameterError;
    expect(renamed.message).toBe('--out: Expected string');
    expect(renamed.extensions).toMatchObject({ parameter: 'out_dir', issues: [{ path: 'out_dir' }] });
    expect(renamed.exitCode).toBe(2);
    expect(renamed.cause).toBeInstanceOf(BadParameterError);
    expect((withCliNames(fromCore(['prompt'], 'Too small'), FLAGS, POSITIONALS) as Error).message).toBe(
      'PROMPT: Too small',
    );
    expect((withCliNames(fromCore(['aspect', '0'], 'Invalid'), FLAGS, POSITIONALS) as Error).message).toBe(
      '--aspect (0): Invalid',
    );
  });

  it("leaves a handler's own refusal, an unknown key and other errors alone", () => {
    const own = new BadParameterError('Media id x is not in the local catalog.', {
      extensions: { parameter: 'media_id' },
    });
    expect(withCliNames(own, FLAGS, POSITIONALS)).toBe(own);
    const unknownKey = fromCore(['tools'], 'Expected array');
    expect(withCliNames(unknownKey, FLAGS, POSITIONALS)).toBe(unknownKey);
    const other = new ReferenceNotFoundError('nope');
    expect(withCliNames(other, FLAGS, POSITIONALS)).toBe(other);
  });
});
