import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IncidentSnapshot } from '@gflow/driver';
import {
  BadParameterError,
  ConfigurationError,
  CancelledError,
  FlowAppError,
  MediaDownloadError,
  ReferenceNotFoundError,
  UnknownError,
  WafRejectionError,
} from '@gflow/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { pruneIncidents } from './pruneIncidents.js';
import { isBrowserFailure } from './recordIncident.js';
import { BUNDLE_NAME, newIncidentId, writeIncidentBundle } from './writeIncidentBundle.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const dirs: string[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gflow-incidents-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function snapshot(overrides: Partial<IncidentSnapshot> = {}): IncidentSnapshot {
  return {
    operation: 'generating an image',
    capturedAt: '2025-03-04T05:06:07.000Z',
    atFailure: true,
    url: 'https://flow.google.com/project/p1',
    title: 'Flow',
    ui: {
      counts: { 'aisandbox-root': 1, "[role='dialog']": 0 },
      settingsTriggerHidden: false,
      agentModeChipPressed: false,
    },
    network: [],
    screenshot: PNG,
    problems: [],
    ...overrides,
  };
}

function mode(file: string): number {
  return fs.statSync(file).mode & 0o777;
}

describe('writeIncidentBundle', () => {
  it('writes its files, private, under <date>/<stamp>-<id>-<rand>, without secrets', async () => {
    const home = tempDir();
    const incidentsDir = path.join(home, 'incidents');
    const id = newIncidentId();
    const error = new WafRejectionError(
      `Flow refused; header was Cookie: SID=s3cr3t and token ya29.abcdefghij from ${home}/profile_alice`,
      { extensions: { may_have_spent: true } },
    );
    const dir = await writeIncidentBundle({
      incidentsDir,
      id,
      operation: 'generateImage',
      error,
      snapshot: snapshot({
        network: [
          {
            seq: 1,
            rpcIds: ['ogiZ0b'],
            endpoint: 'https://flow.google.com/_/data/batchexecute',
            startedAt: '2025-03-04T05:06:06.000Z',
            durationMs: 420,
            status: 403,
            outcome: 'http-error',
            errorText: null,
            requestHead: '[]',
            responseHead: null,
          },
        ],
      }),
      phase: 'submitted',
      redactPaths: [home],
      browser: {
        executable: `${home}/chrome/chrome`,
        headless: true,
        args: ['--lang=de', `--user-data-dir=${home}/x`],
      },
      now: new Date('2025-03-04T05:06:07.089Z'),
    });

    expect(path.dirname(dir)).toBe(path.join(incidentsDir, '2025-03-04'));
    expect(path.basename(dir)).toMatch(new RegExp(`^20250304T050607089Z-${id}-[0-9a-f]{6}$`));
    expect(BUNDLE_NAME.test(path.basename(dir))).toBe(true);
    for (const d of [incidentsDir, path.dirname(dir), dir, path.join(dir, 'sensitive')]) expect(mode(d)).toBe(0o700);
    for (const f of [
      'manifest.json',
      'ui.json',
      'network.json',
      'browser.json',
      'report.md',
      'sensitive/screenshot.png',
    ])
      expect(mode(path.join(dir, f))).toBe(0o600);

    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      incident_id: id,
      operation: 'generateImage',
      phase: 'submitted',
      may_have_spent: true,
      capture_status: 'captured',
      url: 'https://flow.google.com/project/p1',
    });
    expect(manifest['error']).toMatchObject({
      code: 'waf-rejection',
      title: 'Request Rejected By Flow',
      exit_code: 10,
    });
    const all = ['manifest.json', 'ui.json', 'network.json', 'browser.json', 'report.md']
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
      .join('\n');
    for (const secret of ['s3cr3t', 'ya29.', home]) expect(all).not.toContain(secret);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'browser.json'), 'utf8'))).toMatchObject({
      headless: true,
      args: ['--lang=de', expect.not.stringContaining(home)],
    });
    // The report a person reads: what was asked, what happened, the page, the calls, the browser.
    const report = fs.readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(report).toContain(`# gflow incident ${id}`);
    expect(report).toContain('**Operation:** generateImage (generating an image)');
    expect(report).toContain('**Last phase:** submitted');
    expect(report).toContain('**Request Rejected By Flow** (`waf-rejection`, exit 10)');
    expect(report).toContain('**URL:** https://flow.google.com/project/p1');
    expect(report).toMatch(
      /\| ogiZ0b \| https:\/\/flow\.google\.com\/_\/data\/batchexecute \| 403 \| http-error \| 420 \|/,
    );
    expect(report).toContain('**Headless:** yes');
    expect(report).toContain('`sensitive/screenshot.png`');
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'ui.json'), 'utf8'))).toMatchObject({
      counts: { 'aisandbox-root': 1 },
      settingsTriggerHidden: false,
    });
    expect(fs.readFileSync(path.join(dir, 'sensitive/screenshot.png')).equals(PNG)).toBe(true);
  });

  it('leaves out the screenshot it could not take, and says why', async () => {
    const incidentsDir = path.join(tempDir(), 'incidents');
    const dir = await writeIncidentBundle({
      incidentsDir,
      id: newIncidentId(),
      operation: 'uploadImage',
      error: new FlowAppError('x'),
      snapshot: snapshot({ screenshot: null, problems: ['screenshot: timeout'] }),
    });
    expect(fs.existsSync(path.join(dir, 'sensitive'))).toBe(false);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
      files: string[];
      problems: string[];
    };
    expect(manifest.files).toEqual(['manifest.json', 'ui.json', 'network.json', 'browser.json', 'report.md']);
    expect(manifest.problems).toEqual(['screenshot: timeout']);
  });
});

describe('pruneIncidents', () => {
  async function writeMany(incidentsDir: string, days: string[]): Promise<string[]> {
    const out: string[] = [];
    for (const [i, day] of days.entries()) {
      out.push(
        await writeIncidentBundle({
          incidentsDir,
          id: newIncidentId(),
          operation: 'generateImage',
          error: new FlowAppError('x'),
          snapshot: snapshot(),
          now: new Date(`${day}T00:00:0${i}.000Z`),
        }),
      );
    }
    return out;
  }

  it('removes the oldest bundles past the count cap, and empty date folders', async () => {
    const incidentsDir = path.join(tempDir(), 'incidents');
    const written = await writeMany(incidentsDir, ['2025-01-01', '2025-01-02', '2025-01-02', '2025-01-03']);
    fs.writeFileSync(path.join(incidentsDir, 'notes.txt'), 'not a bundle');
    const removed = await pruneIncidents(incidentsDir, { maxBundles: 2 });
    expect(removed).toEqual(written.slice(0, 2));
    expect(written.map((d) => fs.existsSync(d))).toEqual([false, false, true, true]);
    expect(fs.existsSync(path.join(incidentsDir, '2025-01-01'))).toBe(false);
    expect(fs.existsSync(path.join(incidentsDir, 'notes.txt'))).toBe(true);
  });

  it('removes the oldest past the byte cap but never the bundle just written', async () => {
    const incidentsDir = path.join(tempDir(), 'incidents');
    const written = await writeMany(incidentsDir, ['2025-02-01', '2025-02-02', '2025-02-03']);
    const removed = await pruneIncidents(incidentsDir, { maxBytes: 1, keep: written[2]! });
    expect(removed).toEqual(written.slice(0, 2));
    expect(fs.existsSync(written[2]!)).toBe(true);
    expect(await pruneIncidents(path.join(incidentsDir, 'missing'))).toEqual([]);
  });
});

describe('isBrowserFailure', () => {
  it('captures what the driver raised, and failures around it that are not local', () => {
    expect(isBrowserFailure(new ConfigurationError('the settings pane offers no duration'), true)).toBe(true);
    expect(isBrowserFailure(new ConfigurationError('unknown model'), false)).toBe(false);
    expect(isBrowserFailure(new ReferenceNotFoundError('no such media'), false)).toBe(false);
    expect(isBrowserFailure(new BadParameterError('bad'), false)).toBe(false);
    expect(isBrowserFailure(new MediaDownloadError('dropped'), false)).toBe(true);
    expect(isBrowserFailure(new UnknownError('masked'), false)).toBe(true);
    expect(isBrowserFailure(new CancelledError(), true)).toBe(false);
  });
});
