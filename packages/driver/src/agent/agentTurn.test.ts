import { describe, expect, it } from 'vitest';
import { agentDirective, readQuote, uuidOfCdnUrl } from './agentTurn.js';

describe('the agent composer, pure parts', () => {
  it('the directive states kind, count and aspect the way the measured one did', () => {
    expect(agentDirective('image', 'a red kite.', '9:16', 1)).toBe(
      'Make me a picture of a red kite in a 9:16 aspect ratio.',
    );
    expect(agentDirective('image', 'owls', '16:9', 3)).toBe('Make me 3 pictures of owls in a 16:9 aspect ratio.');
    expect(agentDirective('video', 'a storm', '16:9', 1)).toBe('Make me a video of a storm in a 16:9 aspect ratio.');
  });

  it('a quote gives its count and credits once model names (with their digits) are taken out', () => {
    expect(readQuote('Generate 1 video(s) with Veo 3.1 - Lite for 10 credits?')).toMatchObject({
      count: 1,
      credits: 10,
      models: ['Veo 3.1 - Lite'],
    });
    expect(readQuote('2 Bild(er) mit Nano Banana 2.1 für 0 Credits erstellen?')).toMatchObject({
      count: 2,
      credits: 0,
    });
    expect(readQuote('Tạo 1 video bằng Omni 1.1 Flash với 1.200 tín dụng?')).toMatchObject({ count: 1, credits: 1200 });
    expect(readQuote('Generate 1 video for 1,000 credits')).toMatchObject({ count: 1, credits: 1000 });
  });

  it('a quote with one number, or three, has no readable count', () => {
    expect(readQuote('This will use 10 credits. Continue?')).toMatchObject({ count: null, credits: 10 });
    expect(readQuote('Generate 1 video of 8 s for 10 credits?').count).toBeNull();
    expect(readQuote('Continue?')).toMatchObject({ count: null, credits: null });
  });

  it('only a Flow CDN URL names a uuid', () => {
    const id = '0f8e7d6c-5b4a-4321-8fed-cba987654321';
    expect(uuidOfCdnUrl(`https://flow-content.google/image/${id}?Expires=1`)).toBe(id);
    expect(uuidOfCdnUrl(`https://flow-content.google/video/${id.toUpperCase()}`)).toBe(id);
    expect(uuidOfCdnUrl(`https://flow.google.com/asb/CAE123`)).toBeNull();
    expect(uuidOfCdnUrl(`https://evil.example/image/${id}`)).toBeNull();
  });
});
