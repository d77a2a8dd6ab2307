// The commands that need neither a catalog nor the sandbox: the static ones (models, tools,
// character voices), the servers (`mcp run`, `serve`), setup, doctor, update and telemetry. Run by
// ../staticCommands.test.ts in a fresh home, concurrently but for telemetry, which flips a setting.
import fs from 'node:fs';
import path from 'node:path';
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from 'mediabunny';
import { makeMp4 } from '@gflow/flow-sim';
import { type CliResult, waitFor } from '@gflow/testkit';
import { gflowHttp, gflowStdio, spawnCli, startServe } from '@gflow/testkit/cli';
import { expect } from 'vitest';
import * as S from '../outputSchemas.js';
import { type CaseTable, OP, describeRun, expectValid, libraryRun, operationNamed, toolElement } from './harness.js';

/** What ../staticCommands.test.ts adds: a stand-in npm registry for `update --check`. */
export interface StaticFixture {
  readonly registryUrl: string;
}

/** Frames and seconds of an MP4 as a demuxer reads them back (every video packet counted). */
async function readBack(file: string): Promise<{ frames: number; seconds: number }> {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(fs.readFileSync(file)) });
  try {
    const track = await input.getPrimaryVideoTrack();
    if (track === null) throw new Error(`${file} has no video track`);
    let frames = 0;
    for await (const packet of new EncodedPacketSink(track).packets()) if (packet.byteLength > 0) frames += 1;
    return { frames, seconds: await track.computeDuration() };
  } finally {
    input.dispose();
  }
}

export const STATIC_CASES: CaseTable<StaticFixture> = {
  'movie template': {
    concurrent: true,
    output: { schema: S.movieTemplatePayload },
    run: async (t) => {
      const p = await t.json(['movie', 'template']);
      expect(String(p['storyboard'])).toMatch(/^# A gflow storyboard/);
      expect(String(p['storyboard'])).toMatch(/\nscenes:\n/);
    },
  },
  'video stitch': {
    concurrent: true,
    output: OP,
    run: async (t) => {
      const at = (name: string) => path.join(t.home, name);
      fs.writeFileSync(at('a.mp4'), makeMp4({ width: 128, height: 72, seconds: 8, key: 'a' }));
      fs.writeFileSync(at('b.mp4'), makeMp4({ width: 128, height: 72, seconds: 7, key: 'b' }));
      fs.writeFileSync(at('tall.mp4'), makeMp4({ width: 72, height: 128, seconds: 2, key: 'tall' }));
      // gflow video stitch a.mp4 b.mp4 -o ab.mp4: the decoded duration and frames are the sums.
      const p = await t.json(['video', 'stitch', at('a.mp4'), at('b.mp4'), '-o', at('ab.mp4')]);
      expect(p).toMatchObject({ path: at('ab.mp4'), seconds: 15, frames: 360, operation_id: null });
      expect(await readBack(at('ab.mp4'))).toEqual({ frames: 360, seconds: 15 });
      const trimmed = await t.json([
        'video',
        'stitch',
        at('a.mp4'),
        at('b.mp4'),
        '-o',
        at('a-b.mp4'),
        '--overlap',
        '1',
      ]);
      expect(trimmed).toMatchObject({ seconds: 14, frames: 336 });
      expect(await readBack(at('a-b.mp4'))).toEqual({ frames: 336, seconds: 14 });
      const taken = await t.problem(['video', 'stitch', at('a.mp4'), at('b.mp4'), '-o', at('ab.mp4')], {
        code: 'invalid-output',
      });
      expect(String(taken['detail'])).toContain('already exists');
      const apart = await t.problem(['video', 'stitch', at('a.mp4'), at('tall.mp4'), '-o', at('x.mp4')], {
        code: 'bad-parameter',
        exit: 2,
      });
      // The two clips by name (the home directory shows as ~ in an error) and the difference.
      expect(apart['detail']).toMatch(
        /a\.mp4 and \S*tall\.mp4 cannot be joined: the first is 128×72, the second 72×128\. Nothing was written\./,
      );
    },
  },

  'character voices': {
    concurrent: true,
    output: OP,
    run: async (t) => {
      const p = await t.json(['character', 'voices']);
      expect(p['count']).toBe((p['voices'] as unknown[]).length);
      expect(p).toEqual(await libraryRun(t.home, 'characterVoices', {}));
    },
  },
  models: {
    concurrent: true,
    output: OP,
    run: async (t) => {
      const p = await t.json(['models']);
      expect((p['image'] as { models: unknown[] }).models.length).toBeGreaterThan(0);
      expect(p).toEqual(await libraryRun(t.home, 'listModels', {}));
    },
  },
  'tools list': {
    concurrent: true,
    output: OP,
    run: async (t) => {
      const p = await t.json(['tools', 'list']);
      expect((p['tools'] as Array<{ name: string }>).map((x) => x.name)).toContain('creative-director');
      expect(p).toEqual(await libraryRun(t.home, 'listTools', {}));
    },
  },
  'tools show': {
    concurrent: true,
    output: { op: true, view: toolElement },
    run: async (t) => {
      const p = await t.json(['tools', 'show', 'creative-director']);
      expect(p['options']).toEqual(['composition', 'location', 'style']);
      expect(p).toMatchObject({ name: 'creative-director', template: expect.any(String) });
      expect([p]).toEqual((await libraryRun(t.home, 'listTools', { name: 'creative-director' }))['tools']);
    },
  },
  'tools run': {
    concurrent: true,
    output: OP,
    run: async (t) => {
      const p = await t.json(['tools', 'run', 'creative-director', 'a fox in the snow']);
      expect(p).toMatchObject({ original: 'a fox in the snow', was_expanded: true });
      // --style is the tool's style option; a tool without one refuses it, naming its options.
      const styled = await t.json(['tools', 'run', 'creative-director', 'a fox in the snow', '--style', 'film noir']);
      expect(String(styled['expanded'])).toContain('Style: film noir.');
      const refused = await t.problem(['tools', 'run', 'cinematic', 'a fox in the snow', '--style', 'noir'], {
        code: 'bad-parameter',
      });
      expect(String(refused['detail'])).toBe('Prompt tool cinematic has no option "style"; its options: grade.');
      expect(p).toEqual(
        await libraryRun(t.home, 'runPromptTools', {
          prompt: 'a fox in the snow',
          tools: [{ name: 'creative-director' }],
        }),
      );
    },
  },
  'mcp setup': {
    concurrent: true,
    output: { schema: S.mcpSetupPayload },
    run: async (t) => {
      const file = path.join(t.home, 'cursor-mcp.json');
      expect(await t.json(['mcp', 'setup', '--target', 'cursor', '--config-path', file])).toMatchObject({
        status: 'configured',
        target: 'cursor',
        config_path: file,
      });
      expect(await t.json(['mcp', 'setup', '--target', 'cursor', '--config-path', file])).toMatchObject({
        status: 'already_configured',
      });
    },
  },
  'mcp run': {
    concurrent: true,
    output: { server: true },
    run: async (t) => {
      // It answers over stdio: tools/list, and a tool call whose result is the operation's output.
      const conn = await gflowStdio([], { home: t.home, name: 'command-outputs-test' });
      try {
        const { tools } = await conn.client.listTools();
        expect(tools.map((x) => x.name)).toContain('gflow_list_models');
        const result = await conn.client.callTool({ name: 'gflow_list_models', arguments: {} });
        expectValid(operationNamed('listModels').output, result.structuredContent, 'mcp run → gflow_list_models');
      } finally {
        await conn.close();
      }
      // Bad input is refused before serving: a usage error, exit 2, nothing on stdout.
      const bad = await t.run(['mcp', 'run', '--no-such-flag']);
      expect(bad.exitCode, describeRun(['mcp run --no-such-flag'], bad)).toBe(2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toMatch(/^Error: \[\w+\]/m);
    },
  },
  serve: {
    concurrent: true,
    output: { server: true },
    run: async (t) => {
      const serve = await startServe([], { home: t.home, startTimeoutMs: 20_000 });
      let stopped: CliResult;
      try {
        const conn = await gflowHttp(serve, { name: 'command-outputs-test' });
        try {
          const result = await conn.client.callTool({ name: 'gflow_character_voices', arguments: {} });
          expectValid(
            operationNamed('characterVoices').output,
            result.structuredContent,
            'serve → gflow_character_voices',
          );
        } finally {
          await conn.close();
        }
      } finally {
        // Ctrl-C: it stops cleanly.
        stopped = await serve.stop();
      }
      expect(stopped.exitCode, stopped.stderr).toBe(0);
      const bad = await t.run(['serve', '--port', '70000']);
      expect(bad.exitCode, describeRun(['serve --port 70000'], bad)).toBe(2);
      expect(bad.stderr).toMatch(/--port/);
    },
  },
  worker: {
    concurrent: true,
    output: { schema: S.fleetWorkerPayload },
    run: async (t) => {
      // The fleet's worker needs a fleet: without one it is refused before anything starts, and a
      // fleet database nobody answers at is a data-store failure. Serving runs is the fleet
      // journey's (tests-e2e/test/fleet.browser.test.ts), on a real PostgreSQL.
      await t.problem(['worker'], { code: 'usage' });
      await t.problem(['worker', '--fleet', 'postgres://gflow@127.0.0.1:1/gflow'], { code: 'data-store' });
    },
  },
  gallery: {
    concurrent: true,
    output: { server: true },
    run: async (t) => {
      // No daemon of this home on the port: it serves the gallery itself, prints the URL (no
      // browser can be opened here: --no-open) and stops cleanly on Ctrl-C.
      const gallery = spawnCli(['gallery', '--no-open', '--port', '0'], { home: t.home });
      try {
        const url = await waitFor(
          'gflow gallery to print its URL',
          () => /^(http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(gallery.stdout())?.[1],
          20_000,
          50,
        );
        const page = await fetch(url);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
        expect(await page.text()).toContain('No project is catalogued yet');
        gallery.child.kill('SIGINT');
        const stopped = await gallery.done;
        expect(stopped.exitCode, stopped.stderr).toBe(0);
      } finally {
        gallery.killGroup();
      }
      const bad = await t.run(['gallery', '--port', '70000']);
      expect(bad.exitCode, describeRun(['gallery --port 70000'], bad)).toBe(2);
      expect(bad.stderr).toMatch(/--port/);
    },
  },
  doctor: {
    concurrent: true,
    output: { schema: S.doctorPayload },
    run: async (t) => {
      const r = await t.run(['doctor', '--json']);
      const p = JSON.parse(r.stdout) as { overall_status: string };
      expect(r.exitCode, describeRun(['doctor'], r)).toBe(p.overall_status === 'ok' ? 0 : 33);
      await t.json(['doctor'], { exit: r.exitCode });
    },
  },
  update: {
    concurrent: true,
    output: { schema: S.updatePayload },
    run: async (t) => {
      const p = await t.json(['update', '--check'], { env: { GFLOW_CLI_UPDATE_REGISTRY: t.registryUrl } });
      expect(p).toMatchObject({ status: 'update_available', latest: '99.1.0', update_available: true });
    },
  },
  'telemetry status': { output: OP, run: async (t) => void (await t.json(['telemetry', 'status'])) },
  'telemetry off': {
    output: OP,
    run: async (t) => void expect(await t.json(['telemetry', 'off'])).toMatchObject({ recording: 'off' }),
  },
  'telemetry on': {
    output: OP,
    run: async (t) => void expect(await t.json(['telemetry', 'on'])).toMatchObject({ recording: 'on' }),
  },
};
