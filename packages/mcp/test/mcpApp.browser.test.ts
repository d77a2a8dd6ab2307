import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { createGflow, type Gflow } from '@gflow/core';
import { tempDir } from '@gflow/testkit';
import { type SimBrowser, browserSetting, screenshotsDir, startSimBrowser } from '@gflow/testkit/browser';
import { build } from 'esbuild';
import type { Frame, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { RESULT_VIEW_URI, UI_EXTENSION } from '../src/app/mcpApp.js';
import { createGflowMcpServer } from '../src/index.js';

/**
 * The MCP App view in real Chromium, on the real path: a host page runs the
 * ext-apps host SDK (AppBridge) and loads ui://gflow/result.html, as read from
 * the gflow MCP server, into an `<iframe sandbox="allow-scripts">`. The host's
 * MCP side is a real v2 client in this process, connected to the real server
 * over a signed-in runtime on @gflow/flow-sim: the page's AppBridge forwards
 * the view's tools/call and resources/read to it through an exposed binding.
 * The generations are real sandbox generations (the simulator makes the media).
 */

/** Screenshots of each state, for a person to look at (the test report folder). */
const SHOTS = screenshotsDir('mcp-app');
const ACCOUNT = 'mcp.app.user@gflow.invalid';
const PASSWORD = 'correct horse battery';
const PROFILE = 'sim';
/** Markup that would run if the view ever parsed a value as HTML (a broken img's onerror fires under the view's CSP). */
const XSS = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';

interface Rig {
  readonly kit: SimBrowser;
  readonly gflow: Gflow;
  readonly handler: McpHttpHandler;
  readonly client: Client;
  readonly viewHtml: string;
  readonly hostBundle: string;
}

let rigPromise: Promise<Rig> | undefined;
let rig: Rig | undefined;

/** One signed-in runtime, server, client and host bundle for the file (built by the first test that needs them). */
function setup(): Promise<Rig> {
  rigPromise ??= (async () => {
    const kit = await startSimBrowser({ seed: 'mcp-app-view', latency: 'fast' });
    kit.sim.scenario.createAccount({ email: ACCOUNT, password: PASSWORD, credits: 1000, uploadTermsAccepted: true });
    const home = tempDir('mcp-app');
    const gflow = createGflow({
      surface: 'mcp',
      env: {
        GFLOW_CLI_HOME: home,
        GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out'),
        GFLOW_CLI_PROFILE: PROFILE,
        GFLOW_CLI_LOG_LEVEL: 'ERROR',
        GFLOW_CLI_AUTH_LOGIN_TIMEOUT: '240',
        ...browserSetting(),
      },
      cwd: home,
      browser: { ...kit.runtimeBrowser, autofillLogin: { email: ACCOUNT, password: PASSWORD } },
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    await gflow.run('authLogin', { profile: PROFILE, browser: 'internal', account: ACCOUNT });
    const handler = createMcpHandler((ctx) => createGflowMcpServer(gflow, { era: ctx.era }));
    // A host that renders MCP Apps: it declares the extension (modern era: in every request's envelope).
    const client = new Client(
      { name: 'mcp-app-host', version: '1.0.0' },
      {
        capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: ['text/html;profile=mcp-app'] } } },
        versionNegotiation: { mode: 'auto' },
      },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), {
        fetch: (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init)),
      }),
    );
    const read = await client.readResource({ uri: RESULT_VIEW_URI });
    const viewHtml = (read.contents[0] as { text: string }).text;
    // The host side of the SDK, bundled for the page (the host page itself is not under test).
    const bundled = await build({
      stdin: {
        contents: "export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';",
        resolveDir: path.dirname(fileURLToPath(import.meta.url)),
      },
      bundle: true,
      format: 'iife',
      globalName: 'GflowHostSdk',
      platform: 'browser',
      minify: true,
      write: false,
      logLevel: 'warning',
    });
    const hostBundle = bundled.outputFiles[0]?.text ?? '';
    rig = { kit, gflow, handler, client, viewHtml, hostBundle };
    return rig;
  })();
  return rigPromise;
}

afterAll(async () => {
  if (!rig) return;
  await rig.client.close();
  await rig.handler.close();
  await rig.gflow.close();
  await rig.kit.close();
}, 60_000);

/**
 * The host's own script (a string: no test-runner helper may reach the page).
 * `gflowHost.load(html)` connects an AppBridge to the iframe, loads the view
 * and resolves once the view has initialized; `gflowHost.show(input, result)`
 * sends tool-input and tool-result as a host does after a call.
 */
const HOST_SCRIPT = `
window.gflowHost = (() => {
  const { AppBridge, PostMessageTransport } = GflowHostSdk;
  const frame = document.getElementById('view');
  let bridge;
  return {
    async load(html, capabilities) {
      bridge = new AppBridge(null, { name: 'gflow-test-host', version: '1.0.0' }, capabilities);
      bridge.oncalltool = (params) => window.__mcp('tools/call', params);
      bridge.onreadresource = (params) => window.__mcp('resources/read', params);
      const initialized = new Promise((resolve) => { bridge.oninitialized = () => resolve(); });
      // The iframe's WindowProxy stays the same across the srcdoc navigation: the bridge listens first.
      await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
      frame.srcdoc = html;
      await initialized;
    },
    async show(input, result) {
      if (input) await bridge.sendToolInput({ arguments: input });
      await bridge.sendToolResult(result);
    },
  };
})();
`;

interface Host {
  readonly page: Page;
  readonly view: Frame;
  /** http(s) and ws(s) requests any frame of the page made (there must be none). */
  readonly requests: string[];
  /** What the page and the view logged as errors (CSP reports included). */
  readonly errors: string[];
  show(input: Record<string, unknown> | undefined, result: unknown): Promise<void>;
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** What the test host offers the view: by default it forwards tool calls and resource reads. */
const FULL_HOST = { serverTools: {}, serverResources: {} };

async function openHost(r: Rig, capabilities: Record<string, unknown> = FULL_HOST): Promise<Host> {
  const context = await (await r.kit.browser()).newContext({ viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    if (/^(https?|wss?):/i.test(request.url())) requests.push(request.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  // The host's MCP side: the view's requests, forwarded to the real client.
  await page.exposeBinding('__mcp', async (_source, method: string, params: Record<string, unknown>) => {
    if (method === 'tools/call')
      return r.client.callTool(params as { name: string; arguments?: Record<string, unknown> });
    if (method === 'resources/read') return r.client.readResource(params as { uri: string });
    throw new Error(`the test host does not forward ${method}`);
  });
  await page.setContent(
    '<!doctype html><html><body style="margin:0;background:#f6f8fa">' +
      '<iframe id="view" sandbox="allow-scripts" style="width:880px;height:680px;border:1px solid #ccc;margin:8px;background:#fff"></iframe>' +
      '</body></html>',
  );
  await page.addScriptTag({ content: r.hostBundle });
  await page.addScriptTag({ content: HOST_SCRIPT });
  await page.evaluate(
    ([html, caps]) =>
      (window as unknown as { gflowHost: { load(h: string, c: unknown): Promise<void> } }).gflowHost.load(html, caps),
    [r.viewHtml, capabilities] as const,
  );
  const view = await (await page.$('#view'))?.contentFrame();
  if (!view) throw new Error('the view iframe has no frame');
  return {
    page,
    view,
    requests,
    errors,
    show: (input, result) =>
      page.evaluate(
        ([i, res]) =>
          (window as unknown as { gflowHost: { show(a: unknown, b: unknown): Promise<void> } }).gflowHost.show(i, res),
        [input, result] as const,
      ),
    async screenshot(name) {
      await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
    },
    close: () => context.close(),
  };
}

/** The view's text in one part (data-part), or '' while it is not there. */
function partText(view: Frame, part: string): Promise<string> {
  return view.evaluate((name) => document.querySelector(`[data-part="${name}"]`)?.textContent ?? '', part);
}

async function expectNoScriptRan(host: Host): Promise<void> {
  expect(await host.view.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? 0)).toBe(0);
  expect(
    await host.view.evaluate(() => document.querySelectorAll('img[src="x"], #body script, #prompt *').length),
  ).toBe(0);
}

describe('the MCP App result view in Chromium (real server, sandbox generations)', () => {
  it(
    'renders a generated image from gflow://media, and a prompt with markup as text',
    { timeout: 300_000 },
    async () => {
      const r = await setup();
      const tools = (await r.client.listTools()).tools;
      expect(tools.find((t) => t.name === 'gflow_generate_image')?._meta).toMatchObject({
        ui: { resourceUri: RESULT_VIEW_URI },
      });
      const input = { prompt: `a red kite over a green hill ${XSS}`, profile: PROFILE };
      const result = await r.client.callTool({ name: 'gflow_generate_image', arguments: input }, { timeout: 230_000 });
      expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
      const host = await openHost(r);
      try {
        await host.show(input, result);
        await expect
          .poll(
            () => host.view.evaluate(() => document.querySelector<HTMLImageElement>('#body img')?.naturalWidth ?? 0),
            {
              timeout: 30_000,
            },
          )
          .toBeGreaterThan(0);
        const src = await host.view.evaluate(() => document.querySelector('#body img')?.getAttribute('src') ?? '');
        expect(src).toMatch(/^blob:/);
        expect(await partText(host.view, 'prompt')).toBe(input.prompt);
        await expectNoScriptRan(host);
        // Nothing but the media resource reached the view: no file path, no file:// URI, no signed URL.
        const text = await host.view.evaluate(() => document.getElementById('root')?.outerHTML ?? '');
        expect(text).not.toContain('file://');
        expect(text).not.toContain(r.gflow.settings.outputDir);
        expect(host.requests).toEqual([]);
        await host.screenshot('image');
      } finally {
        await host.close();
      }
    },
  );

  it('plays a generated video (muted autoplay; currentTime advances)', { timeout: 300_000 }, async () => {
    const r = await setup();
    const input = { prompt: 'a paper boat drifting down a rainy street', profile: PROFILE };
    const result = await r.client.callTool({ name: 'gflow_generate_video', arguments: input }, { timeout: 230_000 });
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    const host = await openHost(r);
    try {
      await host.show(input, result);
      await expect
        .poll(
          () => host.view.evaluate(() => document.querySelector<HTMLVideoElement>('#body video')?.currentTime ?? 0),
          {
            timeout: 30_000,
          },
        )
        .toBeGreaterThan(0.2);
      const video = await host.view.evaluate(() => {
        const v = document.querySelector('#body video') as HTMLVideoElement;
        return { controls: v.controls, muted: v.muted, playsInline: v.playsInline, src: v.getAttribute('src') ?? '' };
      });
      expect(video).toMatchObject({
        controls: true,
        muted: true,
        playsInline: true,
        src: expect.stringMatching(/^blob:/),
      });
      expect(host.requests).toEqual([]);
      await host.screenshot('video');
    } finally {
      await host.close();
    }
  });

  it('shows a failure: its title, detail, remediation hint and retryable', { timeout: 120_000 }, async () => {
    const r = await setup();
    const input = { media_id: 'no-such-media-0001' };
    const result = await r.client.callTool({ name: 'gflow_download_media', arguments: input });
    expect(result.isError).toBe(true);
    const error = (result.structuredContent as { error: Record<string, unknown> }).error;
    expect(error['remediation_hint']).toEqual(expect.any(String));
    const host = await openHost(r);
    try {
      await host.show(input, result);
      await expect.poll(() => partText(host.view, 'error-hint'), { timeout: 15_000 }).toBe(error['remediation_hint']);
      expect(await partText(host.view, 'error-title')).toBe(error['title']);
      expect(await partText(host.view, 'error-detail')).toBe(error['detail']);
      expect(await partText(host.view, 'error-retryable')).toMatch(
        error['retryable'] ? /^Retryable: yes/ : /^Retryable: no/,
      );
      await host.screenshot('failure');
    } finally {
      await host.close();
    }
  });

  it(
    'follows a wait=false generation through gflow://tasks/<id> until its image shows',
    { timeout: 240_000 },
    async () => {
      const r = await setup();
      const input = { prompt: 'a lighthouse at dusk', profile: PROFILE, wait: false };
      const result = await r.client.callTool({ name: 'gflow_generate_image', arguments: input }, { timeout: 60_000 });
      const queued = result.structuredContent as { status: string; task_id: string };
      expect(queued).toMatchObject({ status: 'pending', task_id: expect.any(String) });
      const host = await openHost(r);
      try {
        await host.show(input, result);
        await expect
          .poll(() => partText(host.view, 'pending-title'), { timeout: 15_000 })
          .toBe(`Task ${queued.task_id}`);
        await host.screenshot('pending');
        // The view reads the task through the host until it completes, then shows its result.
        await expect
          .poll(
            () => host.view.evaluate(() => document.querySelector<HTMLImageElement>('#body img')?.naturalWidth ?? 0),
            { timeout: 180_000 },
          )
          .toBeGreaterThan(0);
        expect(await partText(host.view, 'pending-title')).toBe('');
        expect(host.requests).toEqual([]);
      } finally {
        await host.close();
      }
    },
  );

  it(
    'a host that forwards no resource reads shows the queued task and says the agent follows it',
    { timeout: 120_000 },
    async () => {
      const r = await setup();
      const input = { prompt: 'a quiet pier', profile: PROFILE, wait: false };
      const result = await r.client.callTool({ name: 'gflow_generate_image', arguments: input }, { timeout: 60_000 });
      const queued = result.structuredContent as { status: string; task_id: string };
      const host = await openHost(r, { serverTools: {} });
      try {
        await host.show(input, result);
        await expect
          .poll(() => partText(host.view, 'pending-title'), { timeout: 15_000 })
          .toBe(`Task ${queued.task_id}`);
        expect(await partText(host.view, 'pending-state')).toBe('pending');
        expect(await partText(host.view, 'pending-note')).toMatch(/agent follows it/);
      } finally {
        await host.close();
        await r.gflow.tasks.cancel(queued.task_id).catch(() => undefined);
      }
    },
  );

  it('lists projects by title, markup in a title shown as text', { timeout: 120_000 }, async () => {
    const r = await setup();
    const result = await r.client.callTool({ name: 'gflow_list_projects', arguments: {} });
    const projects = (result.structuredContent as { projects: Array<{ title: string | null; project_id: string }> })
      .projects;
    expect(projects.length).toBeGreaterThan(0);
    // A title as a project could carry it: the view must show it as text.
    const hostile = {
      ...result,
      structuredContent: {
        ...(result.structuredContent as Record<string, unknown>),
        projects: projects.map((p, i) => (i === 0 ? { ...p, title: `My film ${XSS}` } : p)),
      },
    };
    const host = await openHost(r);
    try {
      await host.show(undefined, hostile);
      await expect
        .poll(() => host.view.evaluate(() => [...document.querySelectorAll('.project-name')].map((n) => n.textContent)))
        .toEqual(projects.map((p, i) => (i === 0 ? `My film ${XSS}` : (p.title ?? p.project_id))));
      await expectNoScriptRan(host);
      expect(await host.view.evaluate(() => document.querySelectorAll('.project img, .project script').length)).toBe(0);
      await host.screenshot('projects');
    } finally {
      await host.close();
    }
  });
});
