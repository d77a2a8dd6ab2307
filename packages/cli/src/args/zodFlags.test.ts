import { generateImageInput, generateVideoInput } from '@gflow/core';
import { loadOperations } from '@gflow/core/surfaces';
import { describe, expect, it } from 'vitest';
import { parseToolSpec } from './toolSpecArg.js';
import { zodFlags, zodPositionals } from './zodFlags.js';

// Every operation, loaded (the surfaces' registry loads them on demand).
const OPERATIONS = await loadOperations();

const byKey = (flags: ReturnType<typeof zodFlags>) => Object.fromEntries(flags.map((f) => [f.key, f]));

describe('zodFlags', () => {
  it('derives kebab-case flags, kinds, enums, repeatables and defaults from the image schema', () => {
    const flags = byKey(zodFlags(generateImageInput, { positionals: ['prompt'] }));
    expect(flags['prompt']).toBeUndefined();
    expect(flags['count']).toMatchObject({ name: 'count', kind: 'number', shownDefault: 1 });
    expect(flags['aspect']).toMatchObject({
      kind: 'enum',
      options: ['9:16', '16:9', '1:1', '4:3', '3:4'],
      shownDefault: '1:1',
    });
    expect(flags['ui_mode']).toMatchObject({ name: 'ui-mode', kind: 'enum', options: ['auto', 'classic', 'agentic'] });
    expect(flags['reference_images']).toMatchObject({ name: 'reference-images', kind: 'string', repeatable: true });
    expect(flags['project_name']).toMatchObject({ name: 'project-name', kind: 'string' });
    expect(flags['tools']).toMatchObject({ kind: 'json', repeatable: true });
    expect(flags['wait']).toMatchObject({ kind: 'boolean', shownDefault: true });
    expect(flags['profile']).not.toHaveProperty('required');
  });

  it('applies overrides: names, aliases, CLI defaults, parsers, omissions', () => {
    const flags = byKey(
      zodFlags(generateVideoInput, {
        positionals: ['prompt'],
        overrides: {
          count: { aliases: ['n'] },
          reference_images: { name: 'ref' },
          tools: { name: 'tool', kind: 'string', parse: parseToolSpec },
          mode: { omit: true },
          aspect: { defaultValue: '16:9' },
        },
      }),
    );
    expect(flags['mode']).toBeUndefined();
    expect(flags['count']?.aliases).toEqual(['n']);
    expect(flags['reference_images']?.name).toBe('ref');
    expect(flags['aspect']).toMatchObject({ defaultValue: '16:9', options: ['9:16', '16:9'] });
    expect(flags['tools']?.parse?.('cinematic:style=noir,strength=2')).toEqual({
      name: 'cinematic',
      options: { style: 'noir', strength: 2 },
    });
    expect(flags['duration']).toMatchObject({ kind: 'number' });
    expect(flags['resolution']).toMatchObject({ kind: 'enum', options: ['360p', '720p'] });
  });

  it('sees through number.default().transform() pipes (listProjects --limit)', () => {
    const listProjects = OPERATIONS.find((o) => o.name === 'listProjects');
    const flags = byKey(zodFlags(listProjects?.input));
    expect(flags['limit']).toMatchObject({ kind: 'number', shownDefault: 50 });
    expect(flags['offset']).toMatchObject({ kind: 'number', shownDefault: 0 });
  });

  it('makes positionals from schema keys, required unless optional', () => {
    expect(zodPositionals(generateImageInput, ['prompt'])).toEqual([
      expect.objectContaining({ key: 'prompt', name: 'PROMPT', required: true }),
    ]);
    expect(zodPositionals(generateVideoInput, ['model'])[0]).not.toHaveProperty('required');
  });
});
