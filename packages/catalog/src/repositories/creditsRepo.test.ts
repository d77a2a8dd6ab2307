import { describe, expect, it } from 'vitest';
import { BadParameterError, DataIntegrityError } from '@gflow/errors';
import { memoryCatalog } from '../../test/helpers.js';

const DAY = '2026-03-04';

function started(c: ReturnType<typeof memoryCatalog>, profile = 'alice', extra: Record<string, unknown> = {}): number {
  return c.operations.start({ profile, command: 'video t2v', mode: 't2v', model: 'omni_flash', ...extra }).id;
}

describe('credit ledger', () => {
  it('reserves quotes until the daily budget would be passed, per profile and day', () => {
    const c = memoryCatalog();
    const reserve = (id: number, quoted: number | null, profile = 'alice', day = DAY) =>
      c.credits.reserve({ operationId: id, profile, day, quoted, dailyBudget: 20 });
    expect(reserve(started(c), 12)).toEqual({ ok: true, todayBefore: 0 });
    const second = started(c);
    expect(reserve(second, 12)).toEqual({ ok: false, todayBefore: 12 });
    expect(c.operations.get(second)).toMatchObject({ creditsQuoted: 12, creditDay: DAY, creditState: 'released' });
    expect(reserve(started(c), 8)).toEqual({ ok: true, todayBefore: 12 }); // exactly at the cap passes
    expect(reserve(started(c), 1)).toEqual({ ok: false, todayBefore: 20 });
    // another profile, another day: their own totals
    expect(reserve(started(c, 'bob'), 12, 'bob')).toEqual({ ok: true, todayBefore: 0 });
    expect(reserve(started(c), 12, 'alice', '2026-03-05')).toEqual({ ok: true, todayBefore: 0 });
    expect(c.credits.dayTotal('alice', DAY)).toBe(20);
    expect(c.credits.dayTotal('bob', DAY)).toBe(12);
  });

  it('fails closed on an unreadable quote under a budget; passes it (as 0) without one', () => {
    const c = memoryCatalog();
    const refused = started(c);
    expect(
      c.credits.reserve({ operationId: refused, profile: 'alice', day: DAY, quoted: null, dailyBudget: 100 }),
    ).toEqual({ ok: false, todayBefore: 0 });
    expect(c.operations.get(refused)?.creditState).toBe('released');
    const open = started(c);
    expect(
      c.credits.reserve({ operationId: open, profile: 'alice', day: DAY, quoted: null, dailyBudget: null }),
    ).toEqual({ ok: true, todayBefore: 0 });
    expect(c.operations.get(open)).toMatchObject({ creditsQuoted: null, creditState: 'reserved' });
  });

  it('re-reserving one operation replaces its own quote (it is not counted twice)', () => {
    const c = memoryCatalog();
    const id = started(c);
    c.credits.reserve({ operationId: id, profile: 'alice', day: DAY, quoted: 12, dailyBudget: 20 });
    expect(c.credits.reserve({ operationId: id, profile: 'alice', day: DAY, quoted: 15, dailyBudget: 20 })).toEqual({
      ok: true,
      todayBefore: 0,
    });
    expect(c.credits.dayTotal('alice', DAY)).toBe(15);
  });

  it('released, refused and estimated quotes do not count; spend is recorded', () => {
    const c = memoryCatalog();
    const a = started(c);
    c.credits.reserve({ operationId: a, profile: 'alice', day: DAY, quoted: 12, dailyBudget: null });
    c.credits.release(a);
    expect(c.operations.get(a)?.creditState).toBe('released');
    const b = started(c);
    c.credits.refuse(b, { day: DAY, quoted: 100 });
    const d = started(c);
    c.credits.estimate(d, { day: DAY, quoted: 12 });
    expect(c.operations.get(d)?.creditState).toBe('estimated');
    expect(c.credits.dayTotal('alice', DAY)).toBe(0);
    const e = started(c);
    c.credits.reserve({ operationId: e, profile: 'alice', day: DAY, quoted: 12, dailyBudget: null });
    c.credits.recordSpent(e, 12);
    c.credits.release(d); // not reserved: unchanged
    expect(c.operations.get(d)?.creditState).toBe('estimated');
    expect(c.operations.get(e)).toMatchObject({ creditsQuoted: 12, creditsSpent: 12, creditState: 'reserved' });
  });

  it('sums usage per day, model and surface, with estimates apart', () => {
    const c = memoryCatalog();
    const add = (
      profile: string,
      day: string,
      quoted: number | null,
      extra: Record<string, unknown>,
      spent?: number,
    ) => {
      const id = started(c, profile, extra);
      c.credits.reserve({ operationId: id, profile, day, quoted, dailyBudget: null });
      if (spent !== undefined) c.credits.recordSpent(id, spent);
    };
    add('alice', '2026-03-03', 10, { model: 'veo_lite', surface: 'cli' }, 10);
    add('alice', DAY, 12, { model: 'omni_flash', surface: 'mcp' });
    add('bob', DAY, 12, { model: 'omni_flash', surface: 'cli' }, 12);
    add('alice', DAY, null, { model: 'nano2', surface: 'cli' });
    c.credits.estimate(started(c), { day: DAY, quoted: 99 });
    const all = c.credits.usage({ since: '2026-03-01', until: DAY });
    expect(all.byDay).toEqual([
      { day: '2026-03-03', quoted: 10, spent: 10, operations: 1, unquoted: 0, measured: 1 },
      { day: DAY, quoted: 24, spent: 12, operations: 3, unquoted: 1, measured: 1 },
    ]);
    expect(all.byModel[0]).toEqual({
      model: 'omni_flash',
      quoted: 24,
      spent: 12,
      operations: 2,
      unquoted: 0,
      measured: 1,
    });
    expect(all.bySurface.map((r) => [r.surface, r.quoted])).toEqual([
      ['cli', 22],
      ['mcp', 12],
    ]);
    expect(all.total).toEqual({ quoted: 34, spent: 22, operations: 4, unquoted: 1, measured: 2 });
    expect(all.estimates).toEqual({ count: 1, quoted: 99 });
    const alice = c.credits.usage({ since: DAY, until: DAY, profile: 'alice' });
    expect(alice.total).toMatchObject({ quoted: 12, operations: 2 });
  });

  it('refuses bad days, negative credits and unknown operations', () => {
    const c = memoryCatalog();
    const id = started(c);
    expect(() =>
      c.credits.reserve({ operationId: id, profile: 'alice', day: '4.3.2026', quoted: 1, dailyBudget: null }),
    ).toThrow(BadParameterError);
    expect(() => c.credits.recordSpent(id, -1)).toThrow(BadParameterError);
    expect(() => c.credits.refuse(9999, { day: DAY, quoted: 1 })).toThrow(DataIntegrityError);
    expect(() =>
      c.credits.reserve({ operationId: id, profile: 'bob', day: DAY, quoted: 1, dailyBudget: null }),
    ).toThrow(DataIntegrityError);
  });
});
