import { exitCodeOf } from '@gflow/errors';
import { describe, expect, it } from 'vitest';
import { assertProfileName, isProfileName, profileNameFromEmail, profileNameVerdict } from './profileNames.js';

const exitOf = (name: string): number => {
  try {
    assertProfileName(name);
    return 0;
  } catch (error) {
    return exitCodeOf(error);
  }
};

describe('the profile-name rule', () => {
  it.each(['../evil', '/etc', 'a/b', 'a\\b', '..', '.', 'C:evil', 'x\0y', 'a..b', '../x'])(
    'refuses the path-like %j with exit 13',
    (name) => {
      expect(profileNameVerdict(name)).toBe('path');
      expect(exitOf(name)).toBe(13);
    },
  );

  it.each(['', ' spaced', 'a b', 'ü', '-dash', '_under', '.hidden', 'x'.repeat(65), 'semi;colon'])(
    'refuses the malformed %j with exit 2',
    (name) => {
      expect(profileNameVerdict(name)).toBe('malformed');
      expect(exitOf(name)).toBe(2);
    },
  );

  it.each(['default', 'alice', 'work.2', 'ok-name', 'a_b', 'bob@example.com', 'bob+work@example.com', 'x'.repeat(64)])(
    'accepts the plain %j',
    (name) => {
      expect(assertProfileName(name)).toBe(name);
      expect(isProfileName(name)).toBe(true);
    },
  );
});

describe('profileNameFromEmail', () => {
  it('takes the local part, lowercased, and only when it is a plain name', () => {
    expect(profileNameFromEmail('Ada.Lovelace@example.com')).toBe('ada.lovelace');
    expect(profileNameFromEmail('a+b c@x.org')).toBe('a+b-c');
    expect(profileNameFromEmail('..ada@x.org')).toBe('ada');
    expect(profileNameFromEmail('a..b@x.org')).toBeUndefined();
    expect(profileNameFromEmail('@x.org')).toBeUndefined();
    expect(profileNameFromEmail(`${'x'.repeat(80)}@x.org`)).toBe('x'.repeat(64));
  });
});
