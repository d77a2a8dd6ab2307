#!/usr/bin/env node
// The API reference of the published library entries, generated from the TSDoc of what their
// curated indexes export (nothing else is public): docs/api/<entry>.md.
//   node tooling/scripts/apiDoc.mjs           write the pages
//   node tooling/scripts/apiDoc.mjs --check   exit 1 when a page is stale or an export has no doc comment
// `npm test` runs the check (tooling/test/apiDoc.test.js), so an exported symbol without a doc
// comment, or an export the pages do not show, fails CI.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The documented entries: import specifier, its source index, the page it gets, what it is for. */
export const API_ENTRIES = [
  {
    specifier: '@gflow/core',
    index: 'packages/core/src/index.ts',
    page: 'docs/api/core.md',
    about:
      'The runtime (`createGflow`, `Gflow`), the operations: their names, input and output types and schemas, settings, and the Flow facts a program chooses its inputs from. The guide is [LIBRARY.md](../LIBRARY.md).',
  },
  {
    specifier: '@gflow/core/sandbox',
    index: 'packages/core/src/sandbox/index.ts',
    page: 'docs/api/core-sandbox.md',
    about:
      'The zero-credit sandbox: a runtime whose browser reaches the Flow simulator built into gflow. The only entry that loads the simulator.',
  },
  {
    specifier: '@gflow/core/testing',
    index: 'packages/core/src/fake/index.ts',
    page: 'docs/api/core-testing.md',
    about:
      'The fake runtime for unit tests: every operation of the real runtime, by the same names and input checks, answered at once from its output schema, with failures and answers a test scripts. No browser, network or SQLite. The guide is [LIBRARY.md § Unit tests](../LIBRARY.md#unit-tests-without-a-browser-gflowcoretesting).',
  },
  {
    specifier: '@gflow/errors',
    index: 'packages/errors/src/index.ts',
    page: 'docs/api/errors.md',
    about:
      'The error taxonomy as data: codes, classes, exit codes, RFC 9457 problems, `retryable`, hints, masking and redaction.',
  },
];

const KIND_WORDS = [
  [ts.SymbolFlags.Class, 'class'],
  [ts.SymbolFlags.Function, 'function'],
  [ts.SymbolFlags.Interface, 'interface'],
  [ts.SymbolFlags.TypeAlias, 'type'],
  [ts.SymbolFlags.Enum, 'enum'],
  [ts.SymbolFlags.Variable, 'const'],
];

function program(entries, root) {
  const config = ts.readConfigFile(path.join(repoRoot, 'tooling/tsconfig/base.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, path.join(repoRoot, 'tooling/tsconfig'));
  return ts.createProgram(
    entries.map((e) => path.join(root, e.index)),
    { ...parsed.options, noEmit: true },
  );
}

const oneLine = (text) => text.replace(/\s+/g, ' ').trim();
const clip = (text, max = 220) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const escapeCell = (text) => text.replace(/\|/g, '\\|');

/** The doc comment of a symbol: its text and its tags (@example, @param …), as Markdown. */
function docOf(symbol, checker) {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  const tags = symbol
    .getJsDocTags(checker)
    .map((tag) => ({ name: tag.name, text: ts.displayPartsToString(tag.text ?? []).trim() }));
  return { text, tags };
}

/** One exported symbol: name, kind, a signature line, its doc, where it is declared, its members. */
function describeExport(exported, checker, root) {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const declaration = symbol.declarations?.[0];
  const kind = KIND_WORDS.find(([flag]) => symbol.flags & flag)?.[1] ?? 'value';
  const source = declaration
    ? `${path.relative(root, declaration.getSourceFile().fileName).split(path.sep).join('/')}`
    : '';
  let signature = '';
  if (kind === 'function') {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    signature = type
      .getCallSignatures()
      .map((s) => `${exported.name}${checker.signatureToString(s)}`)
      .join('\n');
  } else if (kind === 'const') {
    signature = `${exported.name}: ${checker.typeToString(checker.getTypeOfSymbolAtLocation(symbol, declaration))}`;
  } else if (kind === 'type' && declaration && ts.isTypeAliasDeclaration(declaration)) {
    signature = `type ${exported.name} = ${oneLine(declaration.type.getText())}`;
  } else if (kind === 'class' || kind === 'interface') {
    const heritage = declaration?.heritageClauses?.map((h) => oneLine(h.getText())).join(' ') ?? '';
    signature = `${kind} ${exported.name}${declaration?.typeParameters ? `<${declaration.typeParameters.map((t) => t.getText()).join(', ')}>` : ''}${heritage ? ` ${heritage}` : ''}`;
  }
  const members = [];
  if ((kind === 'class' || kind === 'interface') && declaration) {
    for (const member of declaration.members ?? []) {
      if (!member.name || ts.isPrivateIdentifier(member.name)) continue;
      const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
      if (modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword))
        continue;
      if (ts.isConstructorDeclaration(member)) continue;
      // What the published .d.ts leave out (stripInternal: a doc comment with @internal) is not API.
      if (member.getFullText().slice(0, member.getLeadingTriviaWidth()).includes('@internal')) continue;
      const memberSymbol = member.symbol;
      const doc = memberSymbol ? docOf(memberSymbol, checker).text : '';
      const text = oneLine(
        member
          .getText()
          .replace(/\{[\s\S]*$/, '')
          .replace(/;$/, ''),
      );
      members.push({
        text: clip(
          text.replace(/^(public|readonly|static|async)\s+/g, (m) => m),
          160,
        ),
        doc: oneLine(doc),
      });
    }
  }
  return {
    name: exported.name,
    kind,
    signature: clip(oneLine(signature), 400),
    ...docOf(symbol, checker),
    source,
    members,
  };
}

/**
 * Every entry's exports, described; `undocumented` lists `specifier: name (file)` for each export
 * without a doc comment.
 */
export function collectApi(apiEntries = API_ENTRIES, root = repoRoot) {
  const prog = program(apiEntries, root);
  const checker = prog.getTypeChecker();
  const entries = apiEntries.map((entry) => {
    const file = prog.getSourceFile(path.join(root, entry.index));
    if (!file) throw new Error(`${entry.index} is not there`);
    const moduleSymbol = checker.getSymbolAtLocation(file);
    const exports = checker
      .getExportsOfModule(moduleSymbol)
      .map((s) => describeExport(s, checker, root))
      .sort((a, b) => a.name.localeCompare(b.name));
    return { ...entry, exports };
  });
  const undocumented = entries.flatMap((e) =>
    e.exports.filter((x) => !x.text).map((x) => `${e.specifier}: ${x.name} (${x.source})`),
  );
  return { entries, undocumented };
}

/** One entry's page. */
export function renderPage(entry) {
  // GitHub's heading anchors: lower case, a -1, -2 … suffix for a repeat (generateImageInput and GenerateImageInput).
  const seen = new Map();
  const anchors = entry.exports.map((x) => {
    const base = x.name.toLowerCase();
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  });
  const lines = [
    `# \`${entry.specifier}\``,
    '',
    "<!-- Generated by tooling/scripts/apiDoc.mjs from the TSDoc of the entry's index; do not edit by hand. -->",
    '',
    entry.about,
    '',
    '| export | kind | what |',
    '|---|---|---|',
    ...entry.exports.map(
      (x, i) =>
        `| [\`${x.name}\`](#${anchors[i]}) | ${x.kind} | ${escapeCell(clip(oneLine(x.text.split(/\n\s*\n/)[0] ?? ''), 140))} |`,
    ),
    '',
  ];
  for (const x of entry.exports) {
    lines.push(`## ${x.name}`, '');
    // A signature is not a program: its fence says so (`ts signature`), and the docs' compile test
    // (packages/core/test/docExamples.test.ts) compiles only the plain `ts` fences.
    if (x.signature) lines.push('```ts signature', x.signature, '```', '');
    if (x.text) lines.push(x.text, '');
    for (const tag of x.tags) {
      if (tag.name === 'example')
        lines.push('Example:', '', tag.text.startsWith('```') ? tag.text : `\`\`\`ts\n${tag.text}\n\`\`\``, '');
      else if (tag.name === 'param' || tag.name === 'returns' || tag.name === 'deprecated' || tag.name === 'see')
        lines.push(`- **@${tag.name}** ${tag.text}`);
    }
    if (x.tags.some((t) => ['param', 'returns', 'deprecated', 'see'].includes(t.name))) lines.push('');
    if (x.members.length) {
      lines.push('| member | what |', '|---|---|');
      for (const m of x.members) lines.push(`| \`${escapeCell(m.text)}\` | ${escapeCell(m.doc)} |`);
      lines.push('');
    }
    lines.push(`Declared in \`${x.source}\`.`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The pages as they should be: `{ page, text }` (the operations' page needs `operationsPage`, async). */
export function apiPages(api = collectApi()) {
  return api.entries.map((entry) => ({ page: entry.page, text: renderPage(entry) }));
}

/** Where the operations' reference goes. */
export const OPERATIONS_PAGE = 'docs/api/operations.md';

/** core's operation registry and zod, loaded from the sources (tsx: plain node runs this script too). */
async function loadOperations(root = repoRoot) {
  const { tsImport } = await import('tsx/esm/api');
  const registry = await tsImport(path.join(root, 'packages/core/src/operations/registry.ts'), import.meta.url);
  const zodPath = createRequire(path.join(root, 'packages/core/package.json')).resolve('zod');
  const { z } = await import(pathToFileURL(zodPath).href);
  return { operations: await registry.loadOperations(), z };
}

/** A JSON Schema node as a short type: `string`, `"a" \| "b"`, `integer ≥ 1`, `string[]`, `object`. */
function typeOf(node) {
  if (!node || typeof node !== 'object' || Object.keys(node).length === 0) return 'any';
  if (node.const !== undefined) return JSON.stringify(node.const);
  if (node.enum) return node.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = node.anyOf ?? node.oneOf;
  if (union) return [...new Set(union.map(typeOf))].join(' | ');
  if (Array.isArray(node.type)) return node.type.join(' | ');
  if (node.type === 'array') return `${typeOf(node.items)}[]`.replace(/^(.* .*)\[\]$/, '($1)[]');
  if (node.type === 'integer' || node.type === 'number') {
    const lo = node.minimum ?? (node.exclusiveMinimum !== undefined ? `>${node.exclusiveMinimum}` : undefined);
    const hi = node.maximum;
    const range =
      lo !== undefined && hi !== undefined && hi < 1e15 ? ` ${lo}–${hi}` : lo !== undefined ? ` ≥ ${lo}` : '';
    return `${node.type}${range}`;
  }
  if (node.type === 'object' && node.additionalProperties && typeof node.additionalProperties === 'object')
    return `Record<string, ${typeOf(node.additionalProperties)}>`;
  return node.type ?? 'any';
}

/** The rows of an object schema: its members, and one level of the members of objects (and arrays of objects) inside. */
function rowsOf(node, prefix = '', depth = 0) {
  const rows = [];
  const required = new Set(node?.required ?? []);
  for (const [name, member] of Object.entries(node?.properties ?? {})) {
    const key = `${prefix}${name}`;
    const description = oneLine(member.description ?? '');
    const fallback = member.default === undefined ? '' : JSON.stringify(member.default);
    rows.push({ key, type: typeOf(member), required: required.has(name), fallback, description });
    const inner = member.type === 'array' ? member.items : member;
    if (depth < 1 && inner?.type === 'object' && inner.properties)
      rows.push(...rowsOf(inner, `${key}${member.type === 'array' ? '[]' : ''}.`, depth + 1));
  }
  return rows;
}

function table(rows, withRequired) {
  if (rows.length === 0) return ['(none)', ''];
  const head = withRequired
    ? ['| name | type | required | default | what |', '|---|---|---|---|---|']
    : ['| name | type | what |', '|---|---|---|'];
  return [
    ...head,
    ...rows.map((r) =>
      withRequired
        ? `| \`${r.key}\` | ${escapeCell(r.type)} | ${r.required ? 'yes' : ''} | ${escapeCell(r.fallback ? `\`${r.fallback}\`` : '')} | ${escapeCell(clip(r.description, 300))} |`
        : `| \`${r.key}\` | ${escapeCell(r.type)} | ${escapeCell(clip(r.description, 300))} |`,
    ),
    '',
  ];
}

/** The operations' page: each operation's names, kind, description, and its input and output as tables from its zod schemas. */
export async function operationsPage(root = repoRoot) {
  const { operations, z } = await loadOperations(root);
  const schema = (s, io) => z.toJSONSchema(s, { io, unrepresentable: 'any' });
  const lines = [
    '# Operations',
    '',
    "<!-- Generated by tooling/scripts/apiDoc.mjs from the operations' zod schemas; do not edit by hand. -->",
    '',
    "What `gflow.run(name, input)` takes and returns, for every operation of `@gflow/core`: the input's members (a call with another member is refused, exit 2) and the result's, as the zod schemas the CLI, the MCP server and the library share say. Optional members of a result are listed too; which ones a result carries depends on how the call ended. Errors are the problem documents of [errors](errors.md).",
    '',
    '| operation | MCP tool | kind | surfaces |',
    '|---|---|---|---|',
    ...operations.map(
      (op) =>
        `| [\`${op.name}\`](#${op.name.toLowerCase()}) | \`${op.mcpName}\` | ${op.kind} | ${op.surfaces?.join(', ') ?? 'all'} |`,
    ),
    '',
  ];
  for (const op of operations) {
    const output = schema(op.output, 'output');
    lines.push(`## ${op.name}`, '', `\`${op.mcpName}\` · ${op.kind}${op.usesBrowser ? ' · opens a browser' : ''}`, '');
    lines.push(oneLine(op.description), '', '**Input**', '', ...table(rowsOf(schema(op.input, 'input')), true));
    lines.push('**Output**', '');
    if (output.properties) lines.push(...table(rowsOf(output), false));
    else
      lines.push(
        `${typeOf(output) === 'any' ? "Not described by a schema (an object the operation's own page or guide names)." : typeOf(output)}`,
        '',
      );
  }
  return { page: OPERATIONS_PAGE, text: `${lines.join('\n').trimEnd()}\n` };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const api = collectApi();
  const pages = [...apiPages(api), await operationsPage()];
  if (process.argv.includes('--check')) {
    const stale = pages.filter((p) => {
      const file = path.join(repoRoot, p.page);
      return !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== p.text;
    });
    for (const name of api.undocumented) process.stderr.write(`[api] no doc comment: ${name}\n`);
    for (const p of stale) process.stderr.write(`[api] ${p.page} is stale: run node tooling/scripts/apiDoc.mjs\n`);
    process.exit(api.undocumented.length || stale.length ? 1 : 0);
  }
  for (const p of pages) {
    fs.mkdirSync(path.dirname(path.join(repoRoot, p.page)), { recursive: true });
    fs.writeFileSync(path.join(repoRoot, p.page), p.text);
  }
  process.stderr.write(
    `[api] wrote ${pages.map((p) => p.page).join(', ')}; ${api.undocumented.length} export(s) without a doc comment\n`,
  );
  for (const name of api.undocumented) process.stderr.write(`  ${name}\n`);
}
