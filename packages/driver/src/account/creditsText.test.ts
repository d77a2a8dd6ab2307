import { describe, expect, it } from 'vitest';
import { parseCreditsText } from './creditsText.js';

describe('parseCreditsText', () => {
  it.each([
    ['1,234 credits', 1234],
    ['1.234 Credits', 1234],
    ['1\u202f234 tín dụng', 1234],
    ['0 credits', 0],
    ['980', 980],
    ['  12\u00a0500  credits ', 12500],
  ])('%j → %d', (text, credits) => {
    expect(parseCreditsText(text)).toEqual({ credits });
  });

  it.each([['credits'], [''], ['1.2K credits'], ['12.5 credits'], ['1,23 credits'], ['10 of 20 credits']])(
    'refuses %j',
    (text) => {
      expect(parseCreditsText(text)).toHaveProperty('error');
    },
  );
});
