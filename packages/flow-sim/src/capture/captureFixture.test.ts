import { describe, expect, it } from 'vitest';
import { type CaptureBundle, fitsShape, fixtureFromBundle, signatureOf } from './captureFixture.js';

const bundle = (extra: Partial<CaptureBundle> = {}): CaptureBundle => ({
  manifest: {
    format: 'gflow-flow-capture/1',
    captured_at: '2026-11-02T12:00:00.000Z',
    build_label: 'boq_x_1',
    arm: 'classic',
  },
  anchors: {
    anchors: [
      {
        probe: 'submit.button',
        anchor: 'button:has(mat-icon:text("arrow_forward"))',
        count: 1,
        html: ['<button class="submit-button"><mat-icon class="mat-icon">arrow_forward</mat-icon></button>'],
      },
      { probe: 'frames.picker', anchor: 'flow-prompt-box button.empty-chip', count: 2, html: [] },
      { probe: 'settings.pane', anchor: '.cdk-overlay-pane:has([role="radiogroup"])', count: 1, html: [] },
    ],
  },
  replies: {
    replies: [
      {
        rpc: 'UpteDb',
        seen: 1,
        shapes: [{ array: 1, items: [{ array: 2, items: [{ array: 6, items: ['string:uuid', 'string'] }] }] }],
      },
    ],
  },
  ...extra,
});

describe('a fixture from a capture bundle', () => {
  it("keeps the reply shapes and each anchor's names and ligatures", () => {
    const fixture = fixtureFromBundle(bundle(), 'real-2026-11', { searchOrder: 'shuffled' });
    expect(fixture).toMatchObject({
      format: 'gflow-flow-fixture/1',
      name: 'real-2026-11',
      source: { build_label: 'boq_x_1', arm: 'classic' },
      variants: { searchOrder: 'shuffled' },
    });
    expect(Object.keys(fixture.replies)).toEqual(['UpteDb']);
    expect(fixture.anchors[0]).toEqual({
      probe: 'submit.button',
      anchor: 'button:has(mat-icon:text("arrow_forward"))',
      tags: ['button', 'mat-icon'],
      classes: [],
      roles: [],
      ligatures: ['arrow_forward'],
    });
    expect(fixture.anchors[1]).toMatchObject({ tags: ['button', 'flow-prompt-box'], classes: ['empty-chip'] });
    expect(fixture.anchors[2]).toMatchObject({ tags: [], classes: ['cdk-overlay-pane'], roles: ['radiogroup'] });
  });

  it('refuses another format, a bad name and anything private', () => {
    expect(() => fixtureFromBundle({ ...bundle(), manifest: { format: 'x' } }, 'a')).toThrow(
      /not a gflow-flow-capture/,
    );
    expect(() => fixtureFromBundle(bundle(), '../evil')).toThrow(/fixture name/);
    for (const leak of ['ana@example.com', 'x?Expires=1', '1b4e28ba-2fa1-11d2-883f-0016d3cca427', 'SAPISID=abc'])
      expect(() =>
        fixtureFromBundle(bundle({ anchors: { anchors: [{ probe: 'p', anchor: 'a', html: [leak] }] } }), 'a'),
      ).toThrow(/private/);
  });

  it('reads ligatures from masked HTML only where a mat-icon holds one', () => {
    expect(
      signatureOf('p', 'div', ['<mat-icon>tune</mat-icon><span>xxxx</span><mat-icon>Xx</mat-icon>']).ligatures,
    ).toEqual(['tune']);
  });
});

describe('fitsShape', () => {
  const rows = {
    array: 1,
    items: [{ array: 2, items: [{ array: 3, items: ['string:uuid', 'string', { array: 2, items: ['int'] }] }] }],
  };
  it('accepts a value of the same kinds and keys, whatever its lengths', () => {
    const id = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
    expect(fitsShape([[[id, 'cat.png', [1, 2]]]], rows)).toBe(true);
    expect(fitsShape([[]], rows)).toBe(true);
    expect(fitsShape({ results: [1] }, { object: { results: { array: 1, items: ['int'] } } })).toBe(true);
    expect(fitsShape('[1]', { json: { array: 1, items: ['int'] } })).toBe(true);
  });

  it('refuses another kind, a missing key or a non-id where an id was', () => {
    expect(fitsShape({ results: [[]] }, rows)).toBe(false);
    expect(fitsShape([[['not-an-id', 'cat.png', [1, 2]]]], rows)).toBe(false);
    expect(fitsShape({}, { object: { results: 'int' } })).toBe(false);
    expect(fitsShape(1.5, 'int')).toBe(false);
    expect(fitsShape('x', 'string:url')).toBe(false);
  });
});
