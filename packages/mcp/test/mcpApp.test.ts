import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Gflow } from '@gflow/core';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_TOOLS, RESULT_VIEW_URI, UI_EXTENSION } from '../src/app/mcpApp.js';
import { VIEW_CSP, inlineSdk } from '../src/app/resultViewHtml.js';
import { createGflowMcpServer } from '../src/index.js';
import { type Era, ERAS } from './clients.js';
import { makeTestGflow } from './testGflow.js';

const MIME = 'text/html;profile=mcp-app';
const UI_CAPABILITY = { extensions: { [UI_EXTENSION]: { mimeTypes: [MIME] } } };

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/**
 * A v2 client of one era on a fresh runtime, declaring the MCP Apps extension
 * or not. Legacy: a connection-scoped instance (what stdio and the daemon's
 * sessions serve), so `initialize` capabilities reach tools/list. Modern: the
 * stateless per-request handler, so the request envelope carries them.
 */
async function connect(era: Era, declaresUi: boolean, gflow?: Gflow): Promise<{ client: Client; gflow: Gflow }> {
  const runtime = gflow ?? makeTestGflow().gflow;
  if (!gflow) closers.push(() => runtime.close());
  const client = new Client(
    { name: 'mcp-app-test', version: '1.0.0' },
    {
      ...(declaresUi ? { capabilities: UI_CAPABILITY } : {}),
      ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    },
  );
  if (era === 'legacy') {
    const server = createGflowMcpServer(runtime, { era: 'legacy' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    closers.push(async () => {
      await client.close();
      await server.close();
    });
  } else {
    const handler: McpHttpHandler = createMcpHandler((ctx) => createGflowMcpServer(runtime, { era: ctx.era }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), {
        fetch: (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init)),
      }),
    );
    closers.push(async () => {
      await client.close();
      await handler.close();
    });
  }
  expect(client.getProtocolEra()).toBe(era);
  return { client, gflow: runtime };
}

describe.each(ERAS)('MCP App result view (%s era)', (era) => {
  it('links exactly the media and project tools to the view for a client that declares the extension', async () => {
    const { client } = await connect(era, true);
    const { tools } = await client.listTools();
    const linked = tools.filter((tool) => tool._meta?.['ui'] !== undefined).map((tool) => tool.name);
    expect(linked.sort()).toEqual([...APP_TOOLS].filter((name) => tools.some((t) => t.name === name)).sort());
    // The test runtime has every real operation but the two generate stand-ins' names: all eight are listed.
    expect(linked).toHaveLength(APP_TOOLS.size);
    for (const tool of tools.filter((t) => APP_TOOLS.has(t.name))) {
      expect(tool._meta, tool.name).toMatchObject({
        ui: { resourceUri: RESULT_VIEW_URI },
        'ui/resourceUri': RESULT_VIEW_URI,
        // The tool's own metadata stays.
        'dev.gflow/kind': expect.any(String),
      });
    }
  });

  it('gives a client without the extension the tools/list it had before: no ui key anywhere, same entries', async () => {
    const { client, gflow } = await connect(era, false);
    const plain = await client.listTools();
    expect(JSON.stringify(plain)).not.toMatch(/"ui(\/[^"]*)?":/);
    expect(JSON.stringify(plain)).not.toContain(RESULT_VIEW_URI);
    // Against a client that declares it, on the same runtime: only the link differs, and only on APP_TOOLS.
    const { client: declaring } = await connect(era, true, gflow);
    const linked = await declaring.listTools();
    expect(linked.tools.map((t) => t.name)).toEqual(plain.tools.map((t) => t.name));
    for (const [i, tool] of linked.tools.entries()) {
      const before = plain.tools[i];
      if (!APP_TOOLS.has(tool.name)) {
        expect(tool, tool.name).toEqual(before);
        continue;
      }
      const { ui, 'ui/resourceUri': flat, ...rest } = tool._meta ?? {};
      expect([ui, flat]).toEqual([{ resourceUri: RESULT_VIEW_URI }, RESULT_VIEW_URI]);
      expect({ ...tool, _meta: rest }).toEqual(before);
    }
  });

  it('leaves tool results unchanged for a client that declares the extension (text, links, structured content)', async () => {
    const { client, gflow } = await connect(era, true);
    const { client: plain } = await connect(era, false, gflow);
    const call = { name: 'gflow_generate_image', arguments: { prompt: 'a cat' } };
    const [withUi, without] = [await client.callTool(call), await plain.callTool(call)];
    expect(withUi).toEqual(without);
    expect(withUi.structuredContent).toMatchObject({ status: 'completed' });
  });

  it('declares the extension in the server capabilities', async () => {
    const { client } = await connect(era, false);
    const caps = client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined;
    expect(caps?.extensions?.[UI_EXTENSION]).toEqual({ mimeTypes: [MIME] });
  });

  it('serves ui://gflow/result.html: the MCP App type, a CSP that lets nothing in from outside, no outside origin', async () => {
    const { client } = await connect(era, false);
    const listed = (await client.listResources()).resources.find((r) => r.uri === RESULT_VIEW_URI);
    expect(listed).toMatchObject({ mimeType: MIME });
    const read = await client.readResource({ uri: RESULT_VIEW_URI });
    const [content] = read.contents as Array<{ uri: string; mimeType: string; text: string; _meta?: unknown }>;
    expect(content).toMatchObject({ uri: RESULT_VIEW_URI, mimeType: MIME });
    expect(content?._meta).toEqual({
      ui: {
        csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
        prefersBorder: true,
      },
    });
    const html = content?.text ?? '';
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
    expect(csp).toBe(VIEW_CSP);
    const directives = new Map(
      (csp ?? '').split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'none'"]);
    expect(directives.get('img-src')).toEqual(['blob:', 'data:']);
    expect(directives.get('media-src')).toEqual(['blob:', 'data:']);
    for (const values of directives.values())
      for (const value of values) expect(value, csp).toMatch(/^('[a-z-]+'|blob:|data:)$/);
    // Nothing in the page loads from anywhere: no src/href/srcset/action attribute, one inline module script.
    // (Matches are compared, not the page: a failure shows the offending text, not 0.5 MB of SDK.)
    expect(html.match(/\s(src|href|action|srcset)\s*=\s*["']?[^\s>]*/gi)).toBeNull();
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script type="module">']);
    // Outside the inlined SDK: no URL but the gflow://media/ and gflow://tasks/ resource prefixes, no CSS url() or @import. Inside it only JSON Schema's
    // $schema identifiers and a credit line: strings the SDK compares, never fetched (connect-src 'none').
    const sdkStart = html.indexOf('<script type="module">');
    const sdkEnd = html.indexOf('const __gflowExtApps');
    expect(sdkStart).toBeGreaterThan(0);
    expect(sdkEnd).toBeGreaterThan(sdkStart);
    const ours = html.slice(0, sdkStart) + html.slice(sdkEnd);
    expect(ours.match(/[a-z]+:\/\/[^\s'"]*/gi)).toEqual(['gflow://media/', 'gflow://tasks/']);
    expect(ours.match(/\burl\(|@import/g)).toBeNull();
    const sdkHosts = new Set([...html.slice(sdkStart, sdkEnd).matchAll(/https?:\/\/([a-z0-9.-]*)/gi)].map((m) => m[1]));
    expect([...sdkHosts].filter((host) => !['json-schema.org', 'github.com', ''].includes(host ?? ''))).toEqual([]);
  });

  it('lists and reads the view for every client, with or without the extension', async () => {
    const { client } = await connect(era, true);
    const read = await client.readResource({ uri: RESULT_VIEW_URI });
    expect((read.contents[0] as { text: string }).text).toContain('__gflowExtApps');
  });
});

describe('inlineSdk', () => {
  it('turns the bundle export list into the object the view reads, and refuses a changed bundle', () => {
    const code = inlineSdk('var a=1;class b{}export{a as PostMessageTransport,b as App,a as Other};\n');
    expect(code).toContain('const __gflowExtApps = { App: b, PostMessageTransport: a };');
    expect(code).not.toContain('export');
    expect(() => inlineSdk('var a=1;export{a as Other};')).toThrow(/does not export App/);
    expect(() => inlineSdk('export default 1;')).toThrow(/one export list/);
    expect(() => inlineSdk('var a="</script>";export{a as App,a as PostMessageTransport};')).toThrow(/inline script/);
  });
});
