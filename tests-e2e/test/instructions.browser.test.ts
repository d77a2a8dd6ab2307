// Journey: instruction cards (issue 19) through the real binary — `gflow instructions …` on the CLI
// and the gflow_instructions_* tools over `gflow mcp run` (stdio) — against the simulator's brief
// panel [U]. Every write answers the card set as Flow shows it, the simulator's own state agrees,
// and `instructions list` / gflow_instructions_list read the change back.
import fs from 'node:fs';
import path from 'node:path';
import { makePng } from '@gflow/flow-sim';
import { beforeAll, describe, expect, it } from 'vitest';
import { json } from '@gflow/testkit';
import { SANDBOX_EMAIL, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'journey-instructions' });

interface Card {
  id: string;
  title: string;
  enabled: boolean;
  text: string;
  image_media_ids: string[];
  character_ids: string[];
}
interface Shown {
  status: string;
  project_id: string;
  enabled: boolean;
  cards: Card[];
  card?: Card;
  agent_mode_enabled?: boolean;
}

let work: string;
beforeAll(async () => {
  await e2e.signIn();
  work = path.join(e2e.home, 'work');
  fs.mkdirSync(work, { recursive: true });
  fs.writeFileSync(path.join(work, 'palette.png'), makePng(90, 60, 'palette'));
  fs.writeFileSync(path.join(work, 'notes.txt'), 'not an image');
}, 120_000);

function newProject(title: string): { id: string; mira: string; image: string } {
  const id = e2e.sim.scenario.createProject(SANDBOX_EMAIL, { title }).id;
  const mira = e2e.sim.scenario.addCharacter(id, { displayName: 'Mira' }).entityId;
  const image = e2e.sim.scenario.addUpload(SANDBOX_EMAIL, id, 'lighthouse.png', makePng(64, 48, 'l')).mediaId;
  return { id, mira, image };
}

describe('the CLI', () => {
  it('add, disable, enable, rm, toggle-mode and apply (TOML) each change the brief, and list shows it', async () => {
    const p = newProject('CLI brief');
    const run = async (...args: string[]): Promise<Shown> => {
      const r = await e2e.cli(['instructions', ...args, '--project', p.id, '--sandbox', '--json'], { cwd: work });
      expect(r.exitCode, r.stderr.slice(-2000)).toBe(0);
      return json(r) as unknown as Shown;
    };
    const stored = () => e2e.sim.scenario.briefOf(p.id);

    // A relative path is the current directory's file (uploaded); a name is the project's character.
    const style = await run('add', 'Style', '--text', 'Muted colours, 35mm', '--ref', 'palette.png', '--ref', 'mira');
    expect(style.card).toMatchObject({ title: 'Style', enabled: true, character_ids: [p.mira] });
    expect(style.card?.image_media_ids).toHaveLength(1);
    expect(stored().cards[0]).toMatchObject({ id: style.card?.id, imageMediaIds: style.card?.image_media_ids });
    const cast = await run('add', 'Cast', '--text', 'The lighthouse keeper', '--ref', p.image, '--disabled');
    expect(cast.card).toMatchObject({ enabled: false, image_media_ids: [p.image] });

    expect((await run('disable', 'style')).card).toMatchObject({ id: style.card?.id, enabled: false });
    expect((await run('enable', '--id', String(style.card?.id))).card).toMatchObject({ enabled: true });
    const removed = await run('rm', 'Cast');
    expect(removed.card?.title).toBe('Cast');
    expect(removed.cards.map((c) => c.title)).toEqual(['Style']);
    expect(await run('toggle-mode', '--off')).toMatchObject({ agent_mode_enabled: false, enabled: false });

    e2e.sim.scenario.addInstructionCard(p.id, { title: 'Old', text: 'drop me' });
    fs.writeFileSync(
      path.join(work, 'cards.toml'),
      [
        '[[cards]]',
        'title = "Style"',
        'text = "Muted colours, 50mm"',
        'ref = ["mira"]',
        '',
        '[[cards]]',
        'title = "Light"',
        'text = "Golden hour"',
        'enabled = false',
      ].join('\n'),
    );
    const applied = await run('apply', 'cards.toml');
    expect(applied.cards.map((c) => [c.title, c.text, c.enabled, c.character_ids])).toEqual([
      ['Style', 'Muted colours, 50mm', true, [p.mira]],
      ['Light', 'Golden hour', false, []],
    ]);
    expect(applied.cards[0]?.id).toBe(style.card?.id);

    const listed = await run('list');
    expect(listed).toMatchObject({ status: 'ok', project_id: p.id, enabled: false });
    expect(listed.cards).toEqual(applied.cards);
    expect(stored().cards.map((c) => c.id)).toEqual(applied.cards.map((c) => c.id));
  }, 240_000);

  it('a bad cards file is exit 2 with nothing sent, and the brief unchanged', async () => {
    const p = newProject('CLI bad file');
    e2e.sim.scenario.addInstructionCard(p.id, { title: 'Keep', text: 'me' });
    fs.writeFileSync(path.join(work, 'bad.json'), JSON.stringify([{ title: 'A', txt: 'typo' }]));
    e2e.sim.received.clear();
    const r = await e2e.cli(['instructions', 'apply', 'bad.json', '--project', p.id, '--sandbox', '--json'], {
      cwd: work,
    });
    expect(r.exitCode).toBe(2);
    expect(json(r)).toMatchObject({ status: 'error', error: { detail: expect.stringMatching(/unknown key "txt"/) } });
    expect(e2e.sim.received.calls().filter((c) => c.rpcId !== 'DTaVef')).toEqual([]);
    expect(e2e.sim.scenario.briefOf(p.id).cards.map((c) => c.title)).toEqual(['Keep']);
  });

  it('a server that stores something else is exit 7 (wire-format, not retryable) naming both sets', async () => {
    const p = newProject('CLI lossy');
    e2e.sim.scenario.setFailure(SANDBOX_EMAIL, 'brief_save_lossy', { times: 1 });
    const r = await e2e.cli(
      ['instructions', 'add', 'Style', '--text', 'noir', '--project', p.id, '--sandbox', '--json'],
      { cwd: work },
    );
    e2e.sim.scenario.clearFailures();
    expect(r.exitCode).toBe(7);
    const problem = json(r)['error'] as Record<string, unknown>;
    expect(problem).toMatchObject({ retryable: false, incident: { capture_status: 'captured' } });
    expect(String(problem['detail'])).toMatch(/left as Flow shows them/);
    expect(problem['intended']).toMatchObject({ cards: [{ title: 'Style', text: 'noir' }] });
    expect(problem['live']).toMatchObject({ cards: [{ title: 'Style', text: '' }] });
  });
});

describe('over MCP (gflow mcp run, stdio)', () => {
  it('the six tools round-trip, and gflow_instructions_list reads the result', async () => {
    const p = newProject('MCP brief');
    const conn = await e2e.mcpStdio(['--sandbox']);
    try {
      const call = async (tool: string, args: Record<string, unknown>): Promise<Shown> => {
        const reply = await conn.call(`gflow_instructions_${tool}`, { project: p.id, ...args }, 120_000);
        expect(reply.isError, JSON.stringify(reply.structured)).toBe(false);
        return reply.structured as unknown as Shown;
      };
      const png = path.join(work, 'palette.png');
      const added = await call('add', { title: 'Style', text: 'noir', refs: [png, p.image, 'Mira'] });
      expect(added.card).toMatchObject({ title: 'Style', character_ids: [p.mira] });
      expect(added.card?.image_media_ids).toHaveLength(2);
      expect(added.card?.image_media_ids).toContain(p.image);
      expect((await call('set_enabled', { title: 'STYLE', enabled: false })).card?.enabled).toBe(false);
      expect((await call('set_enabled', { card_id: added.card?.id, enabled: true })).card?.enabled).toBe(true);
      expect(await call('toggle_mode', { enabled: false })).toMatchObject({ agent_mode_enabled: false });
      await call('add', { title: 'Gone', text: 'soon' });
      expect((await call('rm', { title: 'gone' })).card?.title).toBe('Gone');
      const applied = await call('apply', {
        cards: [
          { title: 'Style', text: 'noir, hard light', ref: ['Mira'] },
          { title: 'Lens', text: '35mm', enabled: false },
        ],
      });
      expect(applied.cards.map((c) => [c.title, c.text, c.enabled, c.image_media_ids])).toEqual([
        ['Style', 'noir, hard light', true, []],
        ['Lens', '35mm', false, []],
      ]);
      expect(applied.cards[0]?.id).toBe(added.card?.id);
      const listed = await call('list', {});
      expect(listed).toMatchObject({ enabled: false, cards: applied.cards });
      expect(e2e.sim.scenario.briefOf(p.id)).toMatchObject({ enabled: false });

      // An ambiguous title is refused before anything is clicked (configuration, 11 on the CLI).
      e2e.sim.scenario.addInstructionCard(p.id, { title: 'lens', text: 'twin' });
      e2e.sim.received.clear();
      const twin = await conn.call('gflow_instructions_rm', { project: p.id, title: 'Lens' }, 120_000);
      expect(twin.isError).toBe(true);
      expect(JSON.stringify(twin.structured)).toContain('configuration');
      expect(e2e.sim.received.calls().filter((c) => c.rpcId !== 'DTaVef')).toEqual([]);
      // A path that is no image is refused before the browser opens, and its bytes are never sent.
      const bad = await conn.call('gflow_instructions_add', {
        project: p.id,
        title: 'X',
        text: 'y',
        refs: [path.join(work, 'notes.txt')],
      });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.structured)).toContain('bad-parameter');
    } finally {
      await conn.close();
    }
  }, 300_000);
});
