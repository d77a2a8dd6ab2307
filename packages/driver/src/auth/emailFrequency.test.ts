import { describe, expect, it } from 'vitest';
import { mostFrequentEmail, sameAccount } from './emailFrequency.js';

describe('mostFrequentEmail', () => {
  it('picks the address the page names most often, case-insensitively', () => {
    const page =
      'Welcome <p>Ada@Example.com</p> contact support@google.com; signed in as ada@example.com. mailto:ada@example.com';
    expect(mostFrequentEmail(page)).toBe('ada@example.com');
  });
  it('breaks ties by first appearance', () => {
    expect(mostFrequentEmail('b@x.org a@x.org b@x.org a@x.org')).toBe('b@x.org');
  });
  it('returns null when there is no address', () => {
    expect(mostFrequentEmail('no addresses here @ all')).toBeNull();
  });
  it('ignores a trailing sentence dot', () => {
    expect(mostFrequentEmail('Signed in as z@y.co.')).toBe('z@y.co');
  });
  it('compares accounts without case or spaces', () => {
    expect(sameAccount(' Ada@Example.com', 'ada@example.com')).toBe(true);
    expect(sameAccount('ada@example.com', 'bob@example.com')).toBe(false);
  });
});
