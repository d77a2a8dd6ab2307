import { HOSTILE_YAML, hostileYamlFuzz } from '@gflow/testkit';
import { describe, expect, it } from 'vitest';
import { FLOW_YAML_LIMITS, parseBoundedYaml } from './boundedYaml.js';

describe('parseBoundedYaml (issue 40)', () => {
  it.each(HOSTILE_YAML.map((c) => [c.name, c] as const))('refuses %s with its line, without throwing', (_n, c) => {
    const result = parseBoundedYaml(c.text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]?.line).toBe(c.line);
    expect(result.problems[0]?.reason).toMatch(/^(YAML: |the file is )/);
  });

  it('names the bound each case hit', () => {
    const reason = (name: string): string => {
      const result = parseBoundedYaml(HOSTILE_YAML.find((c) => c.name === name)?.text ?? '');
      return result.ok ? '' : (result.problems[0]?.reason ?? '');
    };
    expect(reason('alias bomb')).toContain(`aliases expand past the limit of ${FLOW_YAML_LIMITS.maxAliasCount}`);
    expect(reason('deep flow nesting')).toContain(`nested deeper than ${FLOW_YAML_LIMITS.maxDepth} levels`);
    expect(reason('deep block nesting')).toContain('nested deeper than');
    expect(reason('10 MB')).toContain('the file is 10.0 MB');
    expect(reason('__proto__ key')).toContain('"__proto__" may not be used as a key');
    expect(reason('constructor key deep inside')).toContain('"constructor"');
    expect(reason('js tag')).toContain('Unresolved tag');
    expect(reason('binary tag')).toContain('!!binary');
  });

  it('keeps what a flow needs: nesting up to the limit, a few aliases, core tags', () => {
    const nested = `a: ${'['.repeat(FLOW_YAML_LIMITS.maxDepth - 1)}1${']'.repeat(FLOW_YAML_LIMITS.maxDepth - 1)}\n`;
    expect(parseBoundedYaml(nested).ok).toBe(true);
    const result = parseBoundedYaml('base: &b { model: nano }\nuse: *b\nn: !!str 42\n');
    expect(result.ok && result.root).toEqual({ base: { model: 'nano' }, use: { model: 'nano' }, n: '42' });
  });

  it('refuses a second document and reports syntax errors with their line', () => {
    const two = parseBoundedYaml('a: 1\n---\nb: 2\n');
    expect(two.ok === false && two.problems[0]).toMatchObject({
      line: 2,
      reason: 'YAML: a flow file holds one document',
    });
    const broken = parseBoundedYaml('a: 1\nb: [unclosed\n');
    expect(broken.ok === false && broken.problems[0]?.line).toBeGreaterThanOrEqual(2);
  });

  it('never throws on seeded hostile mixes (seed 40)', () => {
    for (const text of hostileYamlFuzz(40, 300)) {
      const result = parseBoundedYaml(text);
      if (!result.ok) for (const p of result.problems) expect(p.line, text).toBeGreaterThanOrEqual(1);
    }
  });
});
