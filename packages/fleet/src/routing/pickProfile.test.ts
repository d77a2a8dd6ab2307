import { describe, expect, it } from 'vitest';
import type { FleetProfile } from '../workers/workerRegistry.js';
import { canTake, pickProfile } from './pickProfile.js';

const profile = (name: string, patch: Partial<FleetProfile> = {}): FleetProfile => ({
  profile: name,
  pools: ['studio'],
  live: true,
  workers: ['w'],
  lastBalance: null,
  creditsToday: 0,
  dailyBudget: null,
  imageRefusedUntil: null,
  videoRefusedUntil: null,
  refused: { image: false, video: false },
  refusedReason: null,
  openTasks: 0,
  ...patch,
});

describe('pool routing', () => {
  it('takes the least busy profile of the pool, then by name', () => {
    const all = [profile('c', { openTasks: 1 }), profile('b', { openTasks: 0 }), profile('a', { openTasks: 2 })];
    expect(pickProfile(all, 'studio', 'image')?.profile).toBe('b');
    expect(pickProfile([profile('z'), profile('y')], 'studio', 'image')?.profile).toBe('y');
  });

  it('for video, among equally busy profiles, the one whose page showed the most credits', () => {
    const all = [profile('a', { lastBalance: 40 }), profile('b', { lastBalance: 900 }), profile('c')];
    expect(pickProfile(all, 'studio', 'video')?.profile).toBe('b');
    expect(pickProfile(all, 'studio', 'image')?.profile).toBe('a');
  });

  it('skips profiles of other pools, without a live worker, refused for the kind, over budget, empty for video, or excluded', () => {
    expect(canTake(profile('a', { live: false }), 'image')).toBe(false);
    expect(canTake(profile('a', { refused: { image: true, video: false } }), 'image')).toBe(false);
    expect(canTake(profile('a', { refused: { image: true, video: false } }), 'video')).toBe(true);
    expect(canTake(profile('a', { dailyBudget: 100, creditsToday: 100 }), 'video')).toBe(false);
    expect(canTake(profile('a', { lastBalance: 0 }), 'video')).toBe(false);
    expect(canTake(profile('a', { lastBalance: 0 }), 'image')).toBe(true);
    const all = [profile('a', { pools: ['other'] }), profile('b'), profile('c')];
    expect(pickProfile(all, 'studio', 'image', new Set(['b']))?.profile).toBe('c');
    expect(pickProfile(all, 'studio', 'image', new Set(['b', 'c']))).toBeUndefined();
    expect(pickProfile(all, 'nobody', 'image')).toBeUndefined();
  });
});
