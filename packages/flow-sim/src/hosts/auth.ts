import type { CookieSpec, Req } from '../net/http.js';
import { parseCookies } from '../net/http.js';
import type { Account } from '../state/accounts.js';
import type { SimState } from '../state/simState.js';

const YEAR = 400 * 24 * 3600;

/** The account whose signed SID-family cookies (on .google.com) this request carries. */
export function googleSession(state: SimState, req: Req): Account | undefined {
  const cookies = parseCookies(req);
  const sid = state.signer.read(cookies.get('SID'), 'sid');
  const sapisid = state.signer.read(cookies.get('SAPISID'), 'sapisid');
  if (sid === null || sapisid === null || sid.email !== sapisid.email) return undefined;
  const account = state.account(sid.email);
  if (account === undefined || account.sessionGeneration !== sid.generation) return undefined;
  return account;
}

/** flow.google.com also needs its own OSID cookies, minted via the ServiceLogin hop. */
export function flowSession(state: SimState, req: Req): { account: Account; osid: boolean } | undefined {
  const account = googleSession(state, req);
  if (account === undefined) return undefined;
  const osid = state.signer.read(parseCookies(req).get('__Secure-OSID'), 'osid');
  return {
    account,
    osid: osid !== null && osid.email === account.email && osid.generation === account.sessionGeneration,
  };
}

export function googleCookies(state: SimState, account: Account): CookieSpec[] {
  const gen = account.sessionGeneration;
  const d = '.google.com';
  const sid = state.signer.mint(account.email, gen, 'sid');
  const sapisid = state.signer.mint(account.email, gen, 'sapisid');
  return [
    { name: 'SID', value: sid, domain: d, maxAge: YEAR },
    { name: 'HSID', value: state.signer.mint(account.email, gen, 'hsid'), domain: d, maxAge: YEAR, httpOnly: true },
    { name: 'SSID', value: state.signer.mint(account.email, gen, 'ssid'), domain: d, maxAge: YEAR, httpOnly: true },
    { name: 'APISID', value: state.signer.mint(account.email, gen, 'apisid'), domain: d, maxAge: YEAR },
    { name: 'SAPISID', value: sapisid, domain: d, maxAge: YEAR },
    { name: '__Secure-1PSID', value: sid, domain: d, maxAge: YEAR, httpOnly: true },
    { name: '__Secure-3PSID', value: sid, domain: d, maxAge: YEAR, httpOnly: true, sameSite: 'None' },
    { name: '__Secure-1PAPISID', value: sapisid, domain: d, maxAge: YEAR },
  ];
}

export function accountsHostCookies(state: SimState, account: Account, remembered: string[]): CookieSpec[] {
  return [
    {
      name: 'LSID',
      value: state.signer.mint(account.email, account.sessionGeneration, 'lsid'),
      maxAge: YEAR,
      httpOnly: true,
    },
    { name: '__Host-GAPS', value: remembered.join(':'), maxAge: YEAR, httpOnly: true },
  ];
}

export function osidCookies(state: SimState, account: Account): CookieSpec[] {
  const value = state.signer.mint(account.email, account.sessionGeneration, 'osid');
  return [
    { name: 'OSID', value, maxAge: YEAR, httpOnly: true },
    { name: '__Secure-OSID', value, maxAge: YEAR, httpOnly: true },
  ];
}

export function labsCookies(state: SimState, account: Account): CookieSpec[] {
  return [
    {
      name: '__Secure-next-auth.session-token',
      value: state.signer.mint(account.email, account.sessionGeneration, 'labs'),
      maxAge: 30 * 24 * 3600,
      httpOnly: true,
    },
    { name: '__Host-next-auth.csrf-token', value: state.signer.sign(`csrf:${account.email}`), httpOnly: true },
    { name: '__Secure-next-auth.callback-url', value: 'https://labs.google/fx/tools/flow', httpOnly: true },
  ];
}

export function expiredCookies(names: string[], domain?: string): CookieSpec[] {
  return names.map((name) => ({ name, value: '', maxAge: 0, ...(domain === undefined ? {} : { domain }) }));
}
