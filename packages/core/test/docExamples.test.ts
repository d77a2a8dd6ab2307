// Issue 42: every TypeScript example of docs/LIBRARY.md and docs/api compiles under strict against the
// sources of the published packages (the same declarations the tarballs ship: embedder.browser.test.ts
// compiles a consumer against those). A docs/api example gets the imports of its page's entry that
// it uses and does not import itself; a signature (a ```ts signature fence) is not a program.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../../..');
const TSC = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

interface Example {
  readonly from: string;
  readonly code: string;
}

/**
 * The ```ts fences of a Markdown file (a fence with more words after the language is left out).
 * LIBRARY.md's one ```js program is run as written by the embedder test instead.
 */
function fences(file: string): Example[] {
  const text = fs.readFileSync(path.join(REPO, file), 'utf8');
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m, i) => ({
    from: `${file} #${i + 1}`,
    code: m[1]!,
  }));
}

/** A docs/api example with the imports of its page's entry it uses (`# \`@gflow/core\`` names the entry). */
function withEntryImports(page: string, code: string): string {
  const text = fs.readFileSync(path.join(REPO, page), 'utf8');
  const entry = /^# `([^`]+)`/m.exec(text)?.[1];
  if (!entry || entry === 'Operations') return code;
  const exported = [...text.matchAll(/^\| \[`(\w+)`\]/gm)].map((m) => m[1]!);
  const imported = new Set(
    [...code.matchAll(/import[^;]*?\{([^}]*)\}/g)].flatMap((m) =>
      m[1]!.split(',').map((n) => n.trim().replace(/^type /, '')),
    ),
  );
  const used = exported.filter((name) => !imported.has(name) && new RegExp(`\\b${name}\\b`).test(code));
  return used.length ? `import { ${used.join(', ')} } from '${entry}';\n${code}` : code;
}

function examples(): Example[] {
  const api = fs.readdirSync(path.join(REPO, 'docs/api')).map((f) => `docs/api/${f}`);
  return [
    ...fences('docs/LIBRARY.md'),
    ...api.flatMap((page) => fences(page).map((e) => ({ ...e, code: withEntryImports(page, e.code) }))),
  ];
}

let dir: string;
const compile = (files: readonly string[]) => {
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: '../../../tooling/tsconfig/base.json',
      compilerOptions: { noEmit: true },
      files,
    }),
  );
  return spawnSync(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json'), '--pretty', 'false'], {
    cwd: dir,
    encoding: 'utf8',
  });
};

beforeAll(() => {
  // Inside the package, so `@gflow/core` resolves to itself and its dependencies as core's own.
  dir = fs.mkdtempSync(path.join(import.meta.dirname, '..', '.doc-examples-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The chain example as it was (issue 42): `resume_from: chain.chain_id`, a `string | null`, does not compile. */
const WRONG = `import { createGflow } from '@gflow/core';
const gflow = createGflow();
const chain = await gflow.run('generateChain', { links: [{ prompt: 'a' }, { prompt: 'b' }] });
if (chain.status === 'failed') await gflow.run('generateChain', { resume_from: chain.chain_id });
export {};
`;

describe('the code examples of the library docs', () => {
  // One compiler run for both (it type-checks core's sources behind the examples): every example
  // compiles, and the one wrong file beside them fails where and how it should.
  let checked: ReturnType<typeof compile>;
  let found: Example[];
  beforeAll(() => {
    found = examples();
    const files = found.map((example, i) => {
      const name = `example${i}.ts`;
      fs.writeFileSync(path.join(dir, name), `// ${example.from}\n${example.code}\nexport {};\n`);
      return name;
    });
    fs.writeFileSync(path.join(dir, 'wrong.ts'), WRONG);
    checked = compile([...files, 'wrong.ts']);
  }, 120_000);

  it('compile under strict, each as its own module', () => {
    expect(found.filter((e) => e.from.startsWith('docs/LIBRARY.md')).length).toBeGreaterThanOrEqual(4);
    expect(found.filter((e) => e.from.startsWith('docs/api/')).length).toBeGreaterThanOrEqual(3);
    const errors = checked.stdout
      .split('\n')
      .filter((line) => /error TS\d+/.test(line) && !line.startsWith('wrong.ts'));
    const named = errors.map((line) =>
      line.replace(/^example(\d+)\.ts/, (m, index: string) => `${m} (${found[Number(index)]!.from})`),
    );
    expect(named).toEqual([]);
  });

  it('a wrong one fails: the chain example as it was (chain_id is string | null)', () => {
    expect(checked.status).not.toBe(0);
    expect(checked.stdout).toMatch(/^wrong\.ts\(4,\d+\): error TS2322: Type 'string \| null' is not assignable/m);
  });
});
