import { describe, expect, it } from 'vitest';
import { isFlowUuid } from './flowIds.js';

describe('Flow ids', () => {
  it('are UUIDs, in either case', () => {
    expect(isFlowUuid('3f0c2a1e-9b7d-4c21-8e5f-0a1b2c3d4e5f')).toBe(true);
    expect(isFlowUuid('3F0C2A1E-9B7D-4C21-8E5F-0A1B2C3D4E5F')).toBe(true);
  });

  it('refuse what cannot name anything in Flow', () => {
    for (const bad of ['abc', 'bogus', '', ' 3f0c2a1e-9b7d-4c21-8e5f-0a1b2c3d4e5f', '../x', 'c.jpg', 42, null])
      expect(isFlowUuid(bad)).toBe(false);
  });
});
