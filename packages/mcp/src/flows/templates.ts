import Handlebars from 'handlebars';

/**
 * Handlebars for flows: an isolated environment (no global helpers or
 * partials), no HTML escaping (the output is prompts and JSON, not HTML), and
 * a load-time check of every variable a template reads, so a typo such as
 * {{arguments.subjet}} or {{steps.stil.flow_media_id}} is reported with its
 * file and line when the flow loads rather than rendering as an empty string.
 */
const hb = Handlebars.create();
hb.registerHelper('json', (value: unknown) => JSON.stringify(value ?? null));
hb.registerHelper('default', (value: unknown, fallback: unknown) =>
  value === undefined || value === null || value === '' ? fallback : value,
);

const BUILTIN_HELPERS = new Set(['if', 'unless', 'each', 'with', 'lookup', 'log', 'json', 'default']);
/** Blocks whose body runs in another context (its paths are relative to the item). */
const CONTEXT_BLOCKS = new Set(['each', 'with']);

/** What a template may read: root name → the names allowed under it (`'any'`: anything). */
export type TemplateScope = ReadonlyMap<string, ReadonlySet<string> | 'any'>;

export interface CompiledTemplate {
  readonly source: string;
  /** Set when the whole template is one plain `{{a.b.c}}`: the value is passed through untouched. */
  readonly wholePath?: readonly string[];
  render(context: object): string;
}

type Node = hbs.AST.Node;

/** Parses and checks a template; throws an Error whose message is the reason. */
export function compileTemplate(source: string, scope: TemplateScope): CompiledTemplate {
  let program: hbs.AST.Program;
  try {
    program = hb.parse(source);
  } catch (error) {
    throw new Error(`template syntax: ${(error as Error).message.split('\n').join(' ')}`);
  }
  checkProgram(program, scope, false);
  const delegate = hb.compile(source, { noEscape: true, strict: false });
  const only = program.body.length === 1 ? program.body[0] : undefined;
  const wholePath =
    only && isPlainPathMustache(only)
      ? (only as hbs.AST.MustacheStatement & { path: hbs.AST.PathExpression }).path.parts
      : undefined;
  return {
    source,
    ...(wholePath ? { wholePath } : {}),
    render: (context) => delegate(context, { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false }),
  };
}

/** True when a string needs the template engine at all. */
export function isTemplate(value: string): boolean {
  return value.includes('{{');
}

/** Reads a dotted path from a context the way Handlebars would (own properties only). */
export function lookupPath(context: unknown, parts: readonly string[]): unknown {
  let current: unknown = context;
  for (const part of parts) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, part))
      return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function isPlainPathMustache(node: Node): boolean {
  if (node.type !== 'MustacheStatement') return false;
  const mustache = node as hbs.AST.MustacheStatement;
  if (mustache.params.length > 0 || mustache.hash?.pairs.length) return false;
  const path = mustache.path as hbs.AST.PathExpression;
  return (
    path.type === 'PathExpression' &&
    !path.data &&
    path.depth === 0 &&
    path.parts.length > 0 &&
    !BUILTIN_HELPERS.has(path.original)
  );
}

function checkProgram(program: hbs.AST.Program | undefined, scope: TemplateScope, relative: boolean): void {
  for (const statement of program?.body ?? []) checkStatement(statement, scope, relative);
}

function checkStatement(node: Node, scope: TemplateScope, relative: boolean): void {
  switch (node.type) {
    case 'MustacheStatement':
    case 'SubExpression': {
      const call = node as hbs.AST.MustacheStatement;
      const isCall = call.params.length > 0 || (call.hash?.pairs.length ?? 0) > 0;
      if (isCall) checkHelper(call.path);
      else checkExpression(call.path, scope, relative);
      checkArguments(call.params, call.hash, scope, relative);
      return;
    }
    case 'BlockStatement': {
      const block = node as hbs.AST.BlockStatement;
      checkHelper(block.path);
      checkArguments(block.params, block.hash, scope, relative);
      const inner = relative || CONTEXT_BLOCKS.has(block.path.original);
      checkProgram(block.program, scope, inner);
      checkProgram(block.inverse, scope, relative);
      return;
    }
    case 'PartialStatement':
    case 'PartialBlockStatement':
      throw new Error('partials ({{> name}}) are not supported in flows');
    case 'DecoratorBlock':
    case 'Decorator':
      throw new Error('decorators are not supported in flows');
    default:
      return;
  }
}

function checkArguments(
  params: readonly hbs.AST.Expression[],
  hash: hbs.AST.Hash | undefined,
  scope: TemplateScope,
  relative: boolean,
): void {
  for (const param of params) checkExpression(param, scope, relative);
  for (const pair of hash?.pairs ?? []) checkExpression(pair.value, scope, relative);
}

function checkHelper(path: hbs.AST.Node): void {
  const name = (path as hbs.AST.PathExpression).original;
  if (path.type !== 'PathExpression' || !BUILTIN_HELPERS.has(name)) {
    throw new Error(`unknown helper "${String(name)}" (available: ${[...BUILTIN_HELPERS].join(', ')})`);
  }
}

function checkExpression(node: hbs.AST.Node, scope: TemplateScope, relative: boolean): void {
  if (node.type === 'SubExpression') return checkStatement(node, scope, relative);
  if (node.type !== 'PathExpression') return;
  const path = node as hbs.AST.PathExpression;
  if (path.data || relative || path.depth > 0 || path.parts.length === 0) return;
  const [root, child] = path.parts;
  const allowed = root === undefined ? undefined : scope.get(root);
  if (allowed === undefined) {
    throw new Error(
      `unknown variable "${path.original}" (a template here can read ${[...scope.keys()].map((k) => `${k}.…`).join(', ') || 'nothing'})`,
    );
  }
  if (allowed === 'any' || child === undefined) return;
  if (!allowed.has(child)) {
    const known = [...allowed];
    throw new Error(
      `unknown variable "${path.original}": ${root} has ${known.length ? known.join(', ') : 'no entries'} here`,
    );
  }
}
