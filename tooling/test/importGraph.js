// The module graph of one package's sources, and the import cycles in it.
// Every form counts: static imports, `import type`, `export … from`, and
// dynamic import() of a relative path (a type-only circle still ties the
// modules' designs together, and a lazy import() is still a dependency).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** Every source file under `dir` (node_modules and dist excluded). */
export function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') out.push(...sourceFiles(full));
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(full);
    }
  }
  return out.sort();
}

/** The module specifiers a file imports, in every form (comments and strings ignored). */
export function importSpecifiers(text, fileName = 'module.ts') {
  const specifiers = [];
  const literal = (node) => (node && ts.isStringLiteralLike(node) ? node.text : undefined);
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const visit = (node) => {
    let specifier;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) specifier = literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      specifier = literal(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      specifier = literal(node.arguments[0]);
    // `typeof import('./x.js')` and `import('./x.js').T` in type positions.
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      specifier = literal(node.argument.literal);
    if (specifier !== undefined) specifiers.push(specifier);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...new Set(specifiers)];
}

/** A relative specifier as a file of the package: `./x.js` is `./x.ts` in the sources, `./dir` its index. */
function resolveRelative(fromFile, specifier, files) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const stem = base.replace(/\.(?:[cm]?js|jsx)$/, '');
  const candidates = [base, ...EXTENSIONS.map((e) => stem + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  return candidates.find((c) => files.has(c));
}

/** A self-reference (`@gflow/x/sub` inside @gflow/x) through the package's exports map. */
function resolveSelf(pkgDir, pkg, specifier, files) {
  if (!pkg.name || (specifier !== pkg.name && !specifier.startsWith(`${pkg.name}/`))) return undefined;
  const subpath = `.${specifier.slice(pkg.name.length)}`;
  const target = typeof pkg.exports === 'string' && subpath === '.' ? pkg.exports : pkg.exports?.[subpath];
  const file = typeof target === 'string' ? target : (target?.import ?? target?.default);
  if (typeof file !== 'string') return undefined;
  const full = path.resolve(pkgDir, file);
  return files.has(full) ? full : undefined;
}

/**
 * The package's module graph: file → the package files it imports. Only the
 * sources count (`src/`); other packages are not followed (a circle between
 * packages is the layering rule's business).
 */
export function packageImportGraph(pkgDir) {
  const pkgFile = path.join(pkgDir, 'package.json');
  const pkg = fs.existsSync(pkgFile) ? JSON.parse(fs.readFileSync(pkgFile, 'utf8')) : {};
  const list = sourceFiles(path.join(pkgDir, 'src'));
  const files = new Set(list);
  const graph = new Map();
  for (const file of list) {
    const edges = new Set();
    for (const specifier of importSpecifiers(fs.readFileSync(file, 'utf8'), file)) {
      const target = specifier.startsWith('.')
        ? resolveRelative(file, specifier, files)
        : resolveSelf(pkgDir, pkg, specifier, files);
      if (target && target !== file) edges.add(target);
    }
    graph.set(file, [...edges].sort());
  }
  return graph;
}

/**
 * The import cycles of a graph: one per strongly connected component of two
 * or more modules (Tarjan), each given as a closed path a → b → … → a, with
 * every module of the component (`members`, sorted).
 */
export function findCycles(graph) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const connect = (node) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), indices.get(next)));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) connect(node);
  return components.map((component) =>
    Object.assign(cyclePath(graph, new Set(component)), { members: [...component].sort() }),
  );
}

/** A shortest closed path through a component, from its first member in sort order. */
function cyclePath(graph, members) {
  const start = [...members].sort()[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}
