import { describe, expect, it } from 'vitest';
import { optionName, optionNames } from './mentions.js';
import { charactersLeft, longestNameAt, mentionStarts } from './promptMentions.js';

describe('@Name in a prompt', () => {
  it('finds an @ at the start or after whitespace before a name, not inside a word or alone', () => {
    expect(mentionStarts('@Mira and @Bo')).toEqual([0, 10]);
    expect(mentionStarts('mail me@home, @ alone, @@x')).toEqual([]);
    expect(mentionStarts('line\n@Kai')).toEqual([5]);
  });

  it('takes the longest name the text starts with, ending where a word ends, letter case aside', () => {
    expect(longestNameAt("Kai Moreno's sister", ['Kai', 'Kai Moreno'])).toBe('Kai Moreno');
    expect(longestNameAt('Miranda waves', ['Mira'])).toBeUndefined();
    expect(longestNameAt('mira, at dawn', ['Mira'])).toBe('Mira');
    expect(longestNameAt('Mira', [' ', ''])).toBeUndefined();
  });

  it('reads an option as a name with or without the type word written after it', () => {
    expect(optionNames('MiraCharacter', 'Mira')).toBe(true);
    expect(optionNames('me.jpgImage', 'me.jpg')).toBe(true);
    expect(optionNames('Mira', 'Mira')).toBe(true);
    expect(optionNames('MirandaImage', 'Mira')).toBe(false);
    expect(optionNames('Mira.pngImage', 'Mira')).toBe(false);
    expect(optionName('a man cryingVideo')).toBe('a man crying');
    expect(optionName('Mira')).toBe('Mira');
  });

  it('leaves at the end only the characters the prompt did not name, by id', () => {
    const ana = { displayName: 'Ana', entityId: 'e1' };
    const bo = { displayName: 'Bo', entityId: 'e2' };
    expect(charactersLeft([ana, bo], [ana])).toEqual([bo]);
    expect(charactersLeft([ana], [{ displayName: 'Ana', entityId: 'other' }])).toEqual([ana]);
  });
});
