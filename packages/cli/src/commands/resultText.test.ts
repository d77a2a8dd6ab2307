// The commands whose result is one small document (an upload, an upscale, a project made or
// renamed, a media fetched again) print it as `key: value` lines on a terminal — never raw JSON —
// and the document itself with --json. The runtime is a fake that answers with the operation's
// result: what is checked here is the CLI's rendering of it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Gflow } from '@gflow/core';
import { loadOperations } from '@gflow/core/surfaces';
import { describe, expect, it } from 'vitest';
import { buildCli } from '../buildCli.js';
import { createBufferIo } from '../cliIo.js';
import { runCli } from '../runCli.js';

// Every operation, loaded (the surfaces' registry loads them on demand).
const OPERATIONS = await loadOperations();

const MEDIA = '3f0c2a1e-0000-4000-8000-000000000001';
const PROJECT = '1a2b3c4d-0000-4000-8000-000000000002';

/** What each operation answers, as core returns it. */
const RESULTS: Record<string, Record<string, unknown>> = {
  uploadImage: {
    status: 'ok',
    media_id: MEDIA,
    project_id: PROJECT,
    display_name: 'photo-1a2b.jpg',
    profile: 'work',
    path: '/photos/photo.jpg',
  },
  upscaleImage: { status: 'ok', media_id: MEDIA, scale: '2k', project_id: PROJECT, path: '/out/x_2k.jpg', bytes: 9 },
  upscaleVideo: {
    status: 'ok',
    media_id: MEDIA,
    scale: '1080p',
    project_id: PROJECT,
    path: '/out/x_1080p.mp4',
    bytes: 9,
  },
  projectsCreate: { status: 'ok', project_id: PROJECT, title: 'Spring', profile: 'work' },
  projectsRename: { status: 'ok', project_id: PROJECT, title: 'Spring v2', profile: 'work' },
  authRenew: { status: 'renewed', profile: 'work', user_email: 'ana@example.com' },
  downloadMedia: {
    status: 'ok',
    media_id: MEDIA,
    workflow_id: null,
    profile: 'work',
    project_id: PROJECT,
    path: '/out/x.mp4',
    bytes: 9,
  },
};

const fakeRuntime = async (): Promise<Gflow> => {
  const gflow = {
    operation: (name: string) => OPERATIONS.find((o) => o.name === name),
    runByName: async (name: string) => RESULTS[name],
    ready: async () => gflow,
    recordUsage: () => undefined,
    close: async () => undefined,
  };
  return gflow as unknown as Gflow;
};

describe('one-document results on a terminal', () => {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-result-text-'));
  fs.writeFileSync(path.join(cwd, 'photo.jpg'), 'jpeg');
  const cases: ReadonlyArray<[string, readonly string[]]> = [
    ['uploadImage', ['image', 'upload', 'photo.jpg', '--project', PROJECT]],
    ['upscaleImage', ['image', 'upscale', MEDIA, '--scale', '2k']],
    ['upscaleVideo', ['video', 'upscale', MEDIA, '--scale', '1080p']],
    ['projectsCreate', ['project', 'create', '--title', 'Spring']],
    ['projectsRename', ['project', 'rename', PROJECT, 'Spring v2']],
    ['downloadMedia', ['data', 'download', MEDIA]],
  ];

  for (const [operation, args] of cases) {
    it(`gflow ${args.slice(0, 2).join(' ')}: key: value lines; --json the document`, async () => {
      const tree = buildCli({ version: '9.9.9' });
      const env = { GFLOW_CLI_HOME: cwd };
      const text = createBufferIo();
      expect(await runCli(tree, [...args], { io: text, version: '9.9.9', env, cwd, runtimeFactory: fakeRuntime })).toBe(
        0,
      );
      const out = text.out();
      expect(out.trimStart().startsWith('{'), out).toBe(false);
      const result = RESULTS[operation] as Record<string, unknown>;
      for (const [key, value] of Object.entries(result)) {
        if (key === 'status') expect(out).not.toMatch(/^status:/m);
        else expect(out).toMatch(new RegExp(`^${key}: +${value === null ? '-' : String(value)}$`, 'm'));
      }
      const json = createBufferIo();
      await runCli(tree, [...args, '--json'], { io: json, version: '9.9.9', env, cwd, runtimeFactory: fakeRuntime });
      expect(JSON.parse(json.out())).toEqual(result);
    });
  }
});

describe('auth renew on a terminal', () => {
  it('prints its outcome as key: value lines, the outcome first', async () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-renew-text-'));
    const text = createBufferIo();
    const code = await runCli(buildCli({ version: '9.9.9' }), ['auth', 'renew', '--profile', 'work'], {
      io: text,
      version: '9.9.9',
      env: { GFLOW_CLI_HOME: cwd },
      cwd,
      runtimeFactory: fakeRuntime,
    });
    expect(code).toBe(0);
    expect(text.out().trimStart().startsWith('{'), text.out()).toBe(false);
    expect(text.out()).toMatch(/^status: +renewed$/m);
    expect(text.out()).toMatch(/^user_email: +ana@example\.com$/m);
  });
});
