import { compileTemplate, isTemplate, lookupPath, type CompiledTemplate, type TemplateScope } from './templates.js';
import type { YamlPath } from './parseFlowFile.js';

/**
 * A YAML value whose strings may be templates (step arguments, a tool's
 * result). Rendering rule:
 * - a string that is exactly one plain `{{path}}` passes the value at that
 *   path through unchanged (a number stays a number, an array an array; an
 *   absent value drops the key);
 * - any other string with `{{` renders to a string;
 * - everything else (numbers, booleans, strings without `{{`) is literal.
 */
export type TemplateValue =
  | { readonly t: 'literal'; readonly value: unknown }
  | { readonly t: 'template'; readonly template: CompiledTemplate }
  | { readonly t: 'array'; readonly items: readonly TemplateValue[] }
  | { readonly t: 'object'; readonly entries: ReadonlyArray<readonly [string, TemplateValue]> };

export interface TemplateIssue {
  readonly path: YamlPath;
  readonly reason: string;
}

/** Compiles every template inside a value; problems are collected with their YAML path. */
export function compileTemplateValue(
  value: unknown,
  scope: TemplateScope,
  at: YamlPath,
  issues: TemplateIssue[],
): TemplateValue {
  if (typeof value === 'string') {
    if (!isTemplate(value)) return { t: 'literal', value };
    try {
      return { t: 'template', template: compileTemplate(value, scope) };
    } catch (error) {
      issues.push({ path: at, reason: (error as Error).message });
      return { t: 'literal', value };
    }
  }
  if (Array.isArray(value))
    return { t: 'array', items: value.map((item, index) => compileTemplateValue(item, scope, [...at, index], issues)) };
  if (value !== null && typeof value === 'object') {
    return {
      t: 'object',
      entries: Object.entries(value).map(
        ([key, item]) => [key, compileTemplateValue(item, scope, [...at, key], issues)] as const,
      ),
    };
  }
  return { t: 'literal', value };
}

/** Renders a compiled value against a context ({arguments, steps} for tools). */
export function renderTemplateValue(value: TemplateValue, context: object): unknown {
  switch (value.t) {
    case 'literal':
      return value.value;
    case 'template':
      if (!value.template.wholePath) return value.template.render(context);
      return lookupPath(context, value.template.wholePath) ?? undefined;
    case 'array':
      return value.items
        .map((item) => renderTemplateValue(item, context))
        .filter((item) => item !== undefined && item !== null);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, item] of value.entries) {
        const rendered = renderTemplateValue(item, context);
        if (rendered !== undefined) out[key] = rendered;
      }
      return out;
    }
  }
}
