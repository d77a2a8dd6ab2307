// Issue 17, item 4: one home for facts about Flow. Through the real CLI in real Chromium against the
// simulator: a profile named like an email signs in *and* generates (core accepted the name, the
// catalog refused it after the login), a path-like name is refused at login with exit 13 before a
// browser opens, and `nano2` is Nano Banana 2.1 on the wire (BELUGA), as `gflow models` says.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2e, SANDBOX_EMAIL, gflow, json, jsonLines, startE2e } from '../helpers/harness.js';

let e2e: E2e;

beforeAll(async () => {
  e2e = await startE2e('issue-17');
}, 90_000);

afterAll(async () => {
  await e2e?.close();
});

const PROFILE = 'bob@example.com';

describe('a profile named bob@example.com', () => {
  it('signs in, generates with nano2 (Nano Banana 2.1, BELUGA) and is catalogued under its name', async () => {
    const login = await gflow(['auth', 'login', '--profile', PROFILE, '--sandbox', '--json'], e2e.env());
    expect(login.exitCode, login.stderr).toBe(0);
    expect(json(login)).toMatchObject({ status: 'authenticated', profile: PROFILE, user_email: SANDBOX_EMAIL });

    e2e.sim.received.clear();
    const image = await gflow(['image', 't2i', 'a paper boat', '--model', 'nano2', '--profile', PROFILE, '--sandbox', '--json'], e2e.env());
    expect(image.exitCode, image.stderr).toBe(0);
    const done = json(image) as { status: string; files: string[]; flow_media_id: string };
    expect(done.status).toBe('completed');
    expect(fs.existsSync(done.files[0] ?? '')).toBe(true);
    const submit = e2e.sim.received.submits().find((s) => s.rpcId === 'ogiZ0b');
    expect(String(submit?.inner)).toContain('BELUGA');

    const rows = await gflow(['data', 'list', 'images', '--profile', PROFILE, '--sandbox', '--json'], e2e.env());
    expect(rows.exitCode, rows.stderr).toBe(0);
    expect(jsonLines(rows).map((r) => r['media_id'])).toContain(done.flow_media_id);
  });

  it('a path-like profile is refused at login with exit 13, and no profile directory appears', async () => {
    const before = fs.readdirSync(e2e.sandboxHome);
    const r = await gflow(['auth', 'login', '--profile', '../x', '--sandbox', '--json'], e2e.env());
    expect(r.exitCode, r.stderr).toBe(13);
    expect(json(r)).toMatchObject({ status: 403 });
    expect(fs.readdirSync(e2e.sandboxHome)).toEqual(before);
    expect(fs.existsSync(path.join(e2e.sandboxHome, '..', 'x'))).toBe(false);
  });
});
