// `@Name` inside the prompt (seed 000, #723): a saved character named there is attached through the
// `@` picker where it stands and verified as a character chip; the id/name routes dedupe with it; an
// ambiguous name is refused (exit 11) naming the ids; a word that names no character stays text.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makePng } from '@gflow/flow-sim';
import { useRig } from './helpers/simSession.js';

const rig = useRig('driver-prompt-mentions');
const email = 'prompt-mentions@example.com';

beforeAll(async () => {
  rig.sim.scenario.createAccount({ email, credits: 5000, uploadTermsAccepted: true });
  await rig.signIn(email);
}, 60_000);

/** The editor's content as the page shows it: text, and each chip as `[type:id]`. */
async function editorContent(): Promise<string> {
  const page = rig.session.context.pages().at(-1);
  if (page === undefined) return '';
  return page.locator('.ProseMirror').evaluate((root) => {
    let out = '';
    const walk = (node: Node): void => {
      for (const child of Array.from(node.childNodes)) {
        if (child.nodeType === Node.TEXT_NODE) out += child.textContent ?? '';
        else if (child instanceof Element && child.classList.contains('mention-chip'))
          out += `[${child.getAttribute('data-reference-type') ?? ''}:${child.getAttribute('data-entity-id') ?? ''}]`;
        else walk(child);
      }
    };
    walk(root);
    return out.replace(/\s+/g, ' ').trim();
  });
}

const image = (projectId: string, prompt: string, characters: Array<{ entityId: string; displayName: string }> = []) =>
  rig.session.generateImage({ projectId, prompt, model: 'nano2', aspect: '1:1', count: 1, characters });

describe('@Name in the prompt', () => {
  it('binds the character where its name stands, not a media of the same name; the body carries its id', async () => {
    const project = rig.sim.scenario.createProject(email);
    const kai = rig.sim.scenario.addCharacter(project.id, { displayName: 'Kai Moreno' });
    const lookalike = rig.sim.scenario.addUpload(email, project.id, 'Kai Moreno', makePng(64, 64, 'not Kai'));
    const result = await image(project.id, "a portrait of @Kai Moreno's sister at dawn");
    expect(result.items).toHaveLength(1);
    const inner = rig.sim.received.calls('ogiZ0b').at(-1)?.inner ?? '';
    expect(inner).toContain(kai.entityId);
    expect(inner).not.toContain(lookalike.mediaId);
    expect(inner).not.toContain(kai.thumbnailMediaId);
    expect(await editorContent()).toBe(`a portrait of [entity:${kai.entityId}] 's sister at dawn`);
  });

  it('a character passed by id and named in the prompt is attached once, in the prompt', async () => {
    const project = rig.sim.scenario.createProject(email);
    const ana = rig.sim.scenario.addCharacter(project.id, { displayName: 'Ana' });
    const bo = rig.sim.scenario.addCharacter(project.id, { displayName: 'Bo' });
    await image(project.id, '@ana and a dog', [
      { entityId: ana.entityId, displayName: 'Ana' },
      { entityId: bo.entityId, displayName: 'Bo' },
    ]);
    const inner = rig.sim.received.calls('ogiZ0b').at(-1)?.inner ?? '';
    expect(inner).toContain(ana.entityId);
    expect(inner).toContain(bo.entityId);
    // Ana where the prompt names her; Bo, not named there, at the end.
    expect(await editorContent()).toBe(`[entity:${ana.entityId}] and a dog [entity:${bo.entityId}]`);
  });

  it('two characters of that name: refused (exit 11) naming both ids, nothing submitted, no chip left', async () => {
    const project = rig.sim.scenario.createProject(email);
    const first = rig.sim.scenario.addCharacter(project.id, { displayName: 'Rex' });
    const second = rig.sim.scenario.addCharacter(project.id, { displayName: 'Rex' });
    const submits = rig.sim.received.submits().length;
    const error = await image(project.id, '@Rex on a hill').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'configuration', exitCode: 11 });
    expect((error as Error).message).toContain(first.entityId);
    expect((error as Error).message).toContain(second.entityId);
    expect(rig.sim.received.submits().length).toBe(submits);
    expect(await editorContent()).not.toContain('[entity:');
  });

  it('two characters of that name in a project that already has media (issue 41): refused naming both, nothing submitted', async () => {
    const project = rig.sim.scenario.createProject(email);
    for (const words of ['a fox in snow', 'a hare at dusk', 'Mira the cat naps']) await image(project.id, words);
    const first = rig.sim.scenario.addCharacter(project.id, { displayName: 'Mira' });
    const second = rig.sim.scenario.addCharacter(project.id, { displayName: 'Mira' });
    const submits = rig.sim.received.submits().length;
    const error = await image(project.id, '@Mira waves').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'configuration', exitCode: 11 });
    expect((error as Error).message).toContain(first.entityId);
    expect((error as Error).message).toContain(second.entityId);
    expect(rig.sim.received.submits().length).toBe(submits);
  });

  it('a name that is no character stays text, also with a media of that name; an @ inside a word is text', async () => {
    const project = rig.sim.scenario.createProject(email);
    const media = rig.sim.scenario.addUpload(email, project.id, 'Nobody', makePng(64, 64, 'Nobody'));
    await image(project.id, '@Nobody waves at me@home');
    const inner = rig.sim.received.calls('ogiZ0b').at(-1)?.inner ?? '';
    expect(inner).toContain('@Nobody waves at me@home');
    expect(inner).not.toContain(media.mediaId);
    expect(await editorContent()).toBe('@Nobody waves at me@home');
  });

  it('r2v: an uploaded reference and @Name in the prompt; MZZa6b carries both', async () => {
    const project = rig.sim.scenario.createProject(email);
    const lia = rig.sim.scenario.addCharacter(project.id, { displayName: 'Lia' });
    const ref = path.join(rig.profileDir, `prompt-ref-${Date.now()}.png`);
    await writeFile(ref, makePng(160, 90, 'a harbour'));
    const result = await rig.session.generateVideo({
      mode: 'r2v',
      projectId: project.id,
      prompt: '@Lia walks along the harbour',
      model: 'veo_3_1_lite',
      aspect: '16:9',
      count: 1,
      references: [{ path: ref }],
      timeoutMs: 120_000,
    });
    expect(result.submitRpc).toBe('MZZa6b');
    const inner = rig.sim.received.calls('MZZa6b').at(-1)?.inner ?? '';
    expect(inner).toContain(lia.entityId);
    expect(inner).toContain(result.uploads[0]?.mediaId);
  });
});
