import { describe, expect, it } from 'vitest';
import { BadParameterError } from '@gflow/errors';
import { openCatalog } from '../index.js';
import { fakeClock } from '../../test/helpers.js';

describe('usage stats', () => {
  it('counts invocations by week/surface/command and generations by command/model/status/month', () => {
    const clock = fakeClock('2026-02-20T12:00:00.000Z'); // a Friday
    const c = openCatalog({ path: ':memory:', now: clock.now });
    c.usage.record({ surface: 'cli', command: 'image t2i' }); // week of 2026-02-16
    c.operations.succeed(c.operations.start({ profile: 'alice', command: 'image t2i', model: 'nano2' }).id);
    clock.set('2026-03-02T08:00:00.000Z'); // Monday
    c.usage.record({ surface: 'mcp', command: 'gflow_generate_image', profile: 'alice' });
    c.usage.record({ surface: 'mcp', command: 'gflow_generate_image', outcome: 'error' });
    c.operations.fail(c.operations.start({ profile: 'alice', command: 'video t2v', model: 'veo-fast' }).id, {
      errorType: 'network',
      errorDetail: 'x',
    });
    c.operations.start({ profile: 'alice', command: 'video t2v', model: 'veo-fast' });
    // A dry run generated nothing: not a generation.
    const dry = c.operations.start({ profile: 'alice', command: 'video t2v', model: 'omni_flash' }).id;
    c.credits.estimate(dry, { day: '2026-03-02', quoted: 12 });
    c.operations.succeed(dry);
    clock.set('2025-06-01T00:00:00.000Z');
    c.usage.record({ surface: 'cli', command: 'models' }); // long ago: outside the window
    c.operations.start({ profile: 'alice', command: 'image t2i', model: 'nano2' });

    clock.set('2026-03-04T09:00:00.000Z'); // Wednesday
    const stats = c.usage.stats({ weeks: 3 });
    expect(stats.since).toBe('2026-02-16T00:00:00.000Z');
    expect(stats.until).toBe('2026-03-04T09:00:00.000Z');
    expect(stats.invocations.byWeek).toEqual([
      { week: '2026-02-16', count: 1 },
      { week: '2026-02-23', count: 0 },
      { week: '2026-03-02', count: 2 },
    ]);
    expect(stats.invocations.total).toBe(3);
    expect(stats.invocations.bySurface).toEqual([
      { surface: 'mcp', count: 2 },
      { surface: 'cli', count: 1 },
    ]);
    expect(stats.invocations.byCommand).toEqual([
      { surface: 'mcp', command: 'gflow_generate_image', count: 2 },
      { surface: 'cli', command: 'image t2i', count: 1 },
    ]);
    expect(stats.generations.total).toBe(3);
    expect(stats.generations.byCommand).toEqual([
      { command: 'video t2v', count: 2 },
      { command: 'image t2i', count: 1 },
    ]);
    expect(stats.generations.byModel).toEqual([
      { model: 'veo-fast', count: 2 },
      { model: 'nano2', count: 1 },
    ]);
    expect(stats.generations.byStatus).toEqual([
      { status: 'failed', count: 1 },
      { status: 'started', count: 1 },
      { status: 'succeeded', count: 1 },
    ]);
    expect(stats.generations.byMonth).toEqual([
      { month: '2026-02', count: 1 },
      { month: '2026-03', count: 2 },
    ]);

    expect(c.usage.stats({ weeks: 1 }).invocations.total).toBe(2);
    expect(c.usage.stats().weeks).toBe(12);
    expect(c.usage.stats({ weeks: 53 }).invocations.total).toBe(4); // 2025-06-01 is within 53 weeks
  });

  it('refuses weeks outside 1..53 and odd command names', () => {
    const c = openCatalog({ path: ':memory:' });
    expect(() => c.usage.stats({ weeks: 0 })).toThrow(BadParameterError);
    expect(() => c.usage.stats({ weeks: 54 })).toThrow(BadParameterError);
    expect(() => c.usage.stats({ weeks: 2.5 })).toThrow(BadParameterError);
    expect(() => c.usage.record({ surface: 'cli', command: 'x'.repeat(101) })).toThrow(BadParameterError);
  });
});

describe('usage journal', () => {
  it('records journaled lines with their own times in one go and skips lines of the wrong shape', () => {
    const c = openCatalog({ path: ':memory:', now: fakeClock('2026-03-04T09:00:00.000Z').now });
    const kept = c.usage.recordJournal([
      { surface: 'cli', command: 'models', profile: null, outcome: 'ok', occurredAt: '2026-03-03T10:00:00.000Z' },
      {
        surface: 'cli',
        command: 'tools list',
        profile: 'alice',
        outcome: 'error',
        occurredAt: '2026-03-04T08:00:00.123Z',
      },
      { surface: 'satellite', command: 'models', occurredAt: '2026-03-03T10:00:00.000Z' },
      { surface: 'cli', command: 'x; DROP TABLE usage_events', occurredAt: '2026-03-03T10:00:00.000Z' },
      { surface: 'cli', command: 'models', profile: '../etc', occurredAt: '2026-03-03T10:00:00.000Z' },
      { surface: 'cli', command: 'models', outcome: 'maybe', occurredAt: '2026-03-03T10:00:00.000Z' },
      { surface: 'cli', command: 'models', occurredAt: 'yesterday' },
    ]);
    expect(kept).toBe(2);
    const stats = c.usage.stats({ weeks: 1 });
    expect(stats.invocations.byCommand).toEqual([
      { surface: 'cli', command: 'models', count: 1 },
      { surface: 'cli', command: 'tools list', count: 1 },
    ]);
    expect(c.usage.recordJournal([])).toBe(0);
    c.close();
  });
});
