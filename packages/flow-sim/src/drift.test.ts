import { describe, expect, it } from 'vitest';
import { DRIFT_NAMES, DRIFT_SWITCHES, checkDrift, driftForPage, reshapeReply } from './drift.js';

describe('drift switches', () => {
  it('refuses an unknown name and keeps each known one once', () => {
    expect(() => checkDrift(['submit_icon', 'no_such_switch'])).toThrow(/unknown drift switch: no_such_switch/);
    expect(checkDrift(['submit_icon', 'submit_icon', 'search_reply'])).toEqual(['submit_icon', 'search_reply']);
  });

  it('hands the page the rewrites of the anchor switches and the rpcs of the reply switches', () => {
    const page = driftForPage(['submit_icon', 'search_reply']);
    expect(page.rules).toEqual([DRIFT_SWITCHES.submit_icon.rule]);
    expect(page.replies).toEqual(['UpteDb']);
    expect(driftForPage([])).toEqual({ rules: [], replies: [] });
  });

  it('wraps only the reply a switch names, and leaves a null payload alone', () => {
    const rows = [[['id', 'name']]];
    expect(reshapeReply(['search_reply'], 'UpteDb', rows)).toEqual({ results: rows });
    expect(reshapeReply(['search_reply'], 'jHPbke', rows)).toBe(rows);
    expect(reshapeReply([], 'UpteDb', rows)).toBe(rows);
    expect(reshapeReply(['search_reply'], 'UpteDb', null)).toBeNull();
  });

  it('says what each switch changes', () => {
    for (const name of DRIFT_NAMES) expect(DRIFT_SWITCHES[name].what.length).toBeGreaterThan(20);
  });
});
