// Issue 17, item 4: one home for facts about Flow. Through the real CLI in real Chromium against the
// simulator: a profile named like an email signs in *and* generates (core accepted the name, the
// catalog refused it after the login), a path-like name is refused at login with exit 13 before a
// browser opens, and `nano2` is Nano Banana 2.1 on the wire (BELUGA), as `gflow models` says.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, jsonLines } from '@gflow/testkit';
import { SANDBOX_EMAIL, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'issue-17' });

const PROFILE = 'bob@example.com';

describe('a profile named bob@example.com', () => {
  it('signs in, generates with nano2 (Nano Banana 2.1, BELUGA) and is catalogued under its name', async () => {
    const login = await e2e.cli(['auth', 'login', '--profile', PROFILE, '--sandbox', '--json']);
    expect(login.exitCode, login.stderr).toBe(0);
    expect(json(login)).toMatchObject({ status: 'authenticated', profile: PROFILE, user_email: SANDBOX_EMAIL });

    e2e.sim.received.clear();
    const image = await e2e.cli([
      'image',
      't2i',
      'a paper boat',
      '--model',
      'nano2',
      '--profile',
      PROFILE,
      '--sandbox',
      '--json',
    ]);
    expect(image.exitCode, image.stderr).toBe(0);
    const done = json(image) as { status: string; files: string[]; flow_media_id: string };
    expect(done.status).toBe('completed');
    expect(fs.existsSync(done.files[0] ?? '')).toBe(true);
    const submit = e2e.sim.received.submits().find((s) => s.rpcId === 'ogiZ0b');
    expect(String(submit?.inner)).toContain('BELUGA');

    const rows = await e2e.cli(['data', 'list', 'images', '--profile', PROFILE, '--sandbox', '--json']);
    expect(rows.exitCode, rows.stderr).toBe(0);
    expect(jsonLines(rows).map((r) => r['media_id'])).toContain(done.flow_media_id);
  });

  it('a path-like profile is refused at login with exit 13, and no profile directory appears', async () => {
    const before = fs.readdirSync(e2e.sandboxHome);
    const r = await e2e.cli(['auth', 'login', '--profile', '../x', '--sandbox', '--json']);
    expect(r.exitCode, r.stderr).toBe(13);
    expect(json(r)).toMatchObject({ status: 'error', error: { status: 403 } });
    expect(fs.readdirSync(e2e.sandboxHome)).toEqual(before);
    expect(fs.existsSync(path.join(e2e.sandboxHome, '..', 'x'))).toBe(false);
  });
});
