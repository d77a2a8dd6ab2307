import fs from 'node:fs';
import { createRequire } from 'node:module';
import { resultViewScript } from './resultViewScript.js';

/** The ext-apps View SDK as one self-contained ES module (its own zod and MCP protocol code inside). */
export const VIEW_SDK_MODULE = '@modelcontextprotocol/ext-apps/app-with-deps';

/**
 * The page's own Content-Security-Policy: inline script and style (the page is
 * one file), images and media from blob: and data: only, and no network at
 * all — the View SDK talks to the host by postMessage, which no CSP directive
 * governs. Hosts add their own policy from the resource's `_meta.ui.csp`
 * (empty domain lists: no outside origin either).
 */
export const VIEW_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src blob: data:',
  'media-src blob: data:',
  "connect-src 'none'",
  "font-src 'none'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The names the view takes from the SDK bundle's export list. */
const SDK_NAMES = ['App', 'PostMessageTransport'] as const;

/**
 * The SDK bundle made fit for an inline module script: its one trailing
 * `export{local as Name, …}` becomes `const __gflowExtApps = {Name: local, …}`
 * (an inline module cannot be imported, so the view code that follows reads
 * the object). Throws when the bundle's shape changed (a new SDK version):
 * test/mcpApp.test.ts reads the resource, so that fails loudly.
 */
export function inlineSdk(source: string): string {
  const match = /export\s*\{([^}]*)\}\s*;?\s*$/.exec(source);
  if (!match?.[1]) throw new Error(`${VIEW_SDK_MODULE} no longer ends with one export list`);
  const exported = new Map<string, string>();
  for (const entry of match[1].split(',')) {
    const [local, name = local] = entry.trim().split(/\s+as\s+/);
    if (local && name) exported.set(name.trim(), local.trim());
  }
  const picks = SDK_NAMES.map((name) => {
    const local = exported.get(name);
    if (!local) throw new Error(`${VIEW_SDK_MODULE} does not export ${name}`);
    return `${name}: ${local}`;
  });
  const code = `${source.slice(0, match.index)}\nconst __gflowExtApps = { ${picks.join(', ')} };\n`;
  // The script sits inside <script>…</script>: a closing tag in its text would end it early.
  if (/<\/script|<!--/i.test(code)) throw new Error(`${VIEW_SDK_MODULE} contains text that would end an inline script`);
  return code;
}

/** Where the gflow binary's bundle keeps its copy of the SDK file (apps/app/scripts/build.mjs RUNTIME_COPIES). */
export const BUNDLED_SDK_FILE = 'ext-apps-app-with-deps.js';

/**
 * The SDK bundle's text: in the gflow binary, the copy its build put beside
 * this module (the tarball has no node_modules); from the sources, the
 * installed package, resolved like an import.
 */
export function readViewSdk(): string {
  const bundled = new URL(`./${BUNDLED_SDK_FILE}`, import.meta.url);
  if (fs.existsSync(bundled)) return fs.readFileSync(bundled, 'utf8');
  return fs.readFileSync(createRequire(import.meta.url).resolve(VIEW_SDK_MODULE), 'utf8');
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: transparent; --line: #d1d9e0; --bad: #b42318; --card: rgba(127,127,127,.08); }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --bad: #ff7b72; } }
* { box-sizing: border-box; }
body { margin: 0; padding: 12px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 13px; font-weight: 600; margin: 0; color: var(--muted); letter-spacing: .02em; }
h2 { font-size: 15px; margin: 0 0 6px; }
p { margin: 4px 0; }
.prompt { margin: 2px 0 10px; white-space: pre-wrap; overflow-wrap: anywhere; }
.prompt:empty { display: none; }
.muted { color: var(--muted); }
.media { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 10px; margin-top: 8px; }
figure { margin: 0; padding: 6px; border: 1px solid var(--line); border-radius: 8px; background: var(--card); }
figure img, figure video { display: block; width: 100%; height: auto; border-radius: 4px; }
figcaption { font-size: 12px; margin-top: 4px; overflow-wrap: anywhere; }
.missing figcaption { color: var(--bad); }
.failure { border-left: 3px solid var(--bad); padding: 6px 10px; background: var(--card); border-radius: 4px; }
.error-title { color: var(--bad); }
.error-hint { font-weight: 500; }
.projects { list-style: none; padding: 0; margin: 0; }
.project { padding: 4px 0; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
.project-name { font-weight: 500; }
progress { width: 100%; }
`;

/**
 * The whole MCP App page: one file with inline style, the inlined View SDK and
 * the view code in one module script. Built once per process (the SDK is
 * ~0.5 MB) on the first read of the resource.
 */
export function resultViewHtml(version: string, sdkSource: string = readViewSdk()): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${VIEW_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>gflow result</title>
<style>${STYLE}</style>
</head>
<body>
<main id="root">
<header><h1>gflow</h1><p id="prompt" class="prompt" data-part="prompt"></p></header>
<section id="body" aria-live="polite"><p class="muted" data-part="waiting">Waiting for the result…</p></section>
</main>
<script type="module">
${inlineSdk(sdkSource)}
{
${resultViewScript(version)}
}
</script>
</body>
</html>
`;
}

let cached: { version: string; html: string } | undefined;

/** resultViewHtml, built on first use and kept. */
export function cachedResultViewHtml(version: string): string {
  if (cached?.version !== version) cached = { version, html: resultViewHtml(version) };
  return cached.html;
}
